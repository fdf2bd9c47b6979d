# cli.tcl --
#
#	Option parsing and help text for the poets subcommands. Each
#	subcommand declares its options as a table; parse checks the words
#	against it with Tcl's own error conventions and --help prints it.

package require poets::exec

namespace eval ::poets::cli {
    namespace path ::poets
    namespace export parse usage synopsis command action
}

# poets::cli::parse --
#
#	Parses "--name value" and "--flag" options, then positional words.
#
# Arguments:
#	cmd	the subcommand name, for messages ("program")
#	spec	a list of {option default metavar doc}; default "!flag" marks a flag
#	        (value 0 or 1), default "!required" a value that must be given
#	positional	words after the options, as in a usage line ("?arg ...?")
#	words	the words to parse
#
# Results:
#	A dict option -> value (without the leading dashes) plus "args" for
#	the positional words. --help raises {POETS HELP} with the usage text.

proc ::poets::cli::parse {cmd spec positional words} {
    set opts [dict create]
    foreach row $spec {
        lassign $row name default
        set key [string range $name 2 end]
        dict set opts $key [expr {$default eq "!flag" ? 0 : $default}]
    }
    while {[llength $words]} {
        set word [lindex $words 0]
        if {$word eq "--"} {
            set words [lrange $words 1 end]
            break
        }
        if {![string match -* $word]} {
            break
        }
        if {$word eq "--help"} {
            throw {POETS HELP} [usage $cmd $spec $positional]
        }
        set row [lsearch -inline -index 0 -exact $spec $word]
        if {$row eq ""} {
            throw {POETS USAGE} "unknown option \"$word\": should be\
                    \"poets $cmd [synopsis $spec $positional]\""
        }
        set key [string range $word 2 end]
        if {[lindex $row 1] eq "!flag"} {
            dict set opts $key 1
            set words [lrange $words 1 end]
            continue
        }
        if {[llength $words] < 2} {
            throw {POETS USAGE} "value for \"$word\" missing"
        }
        dict set opts $key [lindex $words 1]
        set words [lrange $words 2 end]
    }
    foreach row $spec {
        set key [string range [lindex $row 0] 2 end]
        if {[dict get $opts $key] eq "!required"} {
            throw {POETS USAGE} "option \"[lindex $row 0]\" is required:\
                    should be \"poets $cmd [synopsis $spec $positional]\""
        }
    }
    dict set opts args $words
    return $opts
}

# poets::cli::synopsis --
#
#	The one-line form of a subcommand's arguments.
#
# Arguments:
#	spec, positional	as for parse
#
# Results:
#	A string such as "--sof FILE ?--dry-run? ?arg ...?".

proc ::poets::cli::synopsis {spec positional} {
    set parts {}
    foreach row $spec {
        lassign $row name default metavar
        set part [string trim "$name $metavar"]
        lappend parts [expr {$default eq "!required" ? $part : "?$part?"}]
    }
    if {$positional ne ""} {
        lappend parts $positional
    }
    return [join $parts]
}

# poets::cli::usage --
#
#	The --help text of a subcommand.
#
# Arguments:
#	cmd, spec, positional	as for parse
#
# Results:
#	The usage line followed by one line per option.

proc ::poets::cli::usage {cmd spec positional} {
    set text "usage: poets $cmd [synopsis $spec $positional]\n"
    foreach row $spec {
        lassign $row name default metavar doc
        if {$default ni {!flag !required ""}} {
            append doc " (default: $default)"
        }
        append text [format "  %-22s %s\n" [string trim "$name $metavar"] $doc]
    }
    return [string trimright $text]
}


# poets::cli::command --
#
#	Parses a subcommand that takes only options, and applies the common
#	ones (--dry-run, --here) to the exec layer.
#
# Arguments:
#	cmd	the subcommand
#	spec	its option table (see parse)
#	words	its words
#
# Results:
#	The parsed options.

proc ::poets::cli::command {cmd spec words} {
    set opts [parse $cmd $spec "" $words]
    if {[llength [dict get $opts args]]} {
        throw {POETS USAGE} "wrong # args: should be \"poets $cmd [synopsis $spec {}]\""
    }
    ::poets::exec::configure -dryrun [dict get $opts dry-run] -here [dict get $opts here]
    return $opts
}

# poets::cli::action --
#
#	Parses a subcommand that takes one action word (on|off,
#	start|stop|status) before or after its options, and applies the
#	common options as command does.
#
# Arguments:
#	cmd	the subcommand
#	spec	its option table (see parse)
#	actions	the action words
#	words	its words
#
# Results:
#	{action opts}.

proc ::poets::cli::action {cmd spec actions words} {
    set choice [join $actions |]
    set action ""
    if {[lindex $words 0] in $actions} {
        set action [lindex $words 0]
        set words [lrange $words 1 end]
    }
    set opts [parse $cmd $spec $choice $words]
    set rest [dict get $opts args]
    if {$action eq "" && [llength $rest] == 1 && [lindex $rest 0] in $actions} {
        set action [lindex $rest 0]
        set rest {}
    }
    if {$action eq "" || [llength $rest]} {
        throw {POETS USAGE} "wrong # args: should be \"poets $cmd [synopsis $spec $choice]\""
    }
    ::poets::exec::configure -dryrun [dict get $opts dry-run] -here [dict get $opts here]
    return [list $action $opts]
}

package provide poets::cli 1.0
