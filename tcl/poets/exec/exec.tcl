# exec.tcl --
#
#	The one place where poets runs external commands. Every command is
#	given as a list of words and a host: a command for a box runs on the
#	box's host PC, directly when that is this machine and through ssh
#	otherwise. With --dry-run nothing runs; the exact command lines are
#	printed instead, in a form a POSIX shell accepts as is.

namespace eval ::poets::exec {
    namespace export configure run spawn shquote cmdline is_local require say write_file is_dry
    # Whether commands are printed instead of run.
    variable dryrun 0
    # Command prefix that receives each printed line (tests replace it).
    variable output {puts stdout}
    # Force every host to count as local (--here).
    variable here 0
}

# poets::exec::configure --
#
#	Sets the layer's options.
#
# Arguments:
#	args	-dryrun BOOL, -output CMDPREFIX, -here BOOL
#
# Results:
#	None.

proc ::poets::exec::configure {args} {
    foreach {opt value} $args {
        switch -- $opt {
            -dryrun { variable dryrun $value }
            -output { variable output $value }
            -here { variable here $value }
            default { throw {POETS USAGE} "unknown option \"$opt\"" }
        }
    }
}

# poets::exec::say --
#
#	Prints one line through the configured output.
#
# Arguments:
#	line	the text
#
# Results:
#	None.

proc ::poets::exec::say {line} {
    variable output
    {*}$output $line
}

# poets::exec::shquote --
#
#	Quotes one word for a POSIX shell, leaving plain words alone.
#
# Arguments:
#	word	the word
#
# Results:
#	The word, single-quoted or double-quoted when it needs to be.

proc ::poets::exec::shquote {word} {
    if {$word ne "" && [regexp {^[A-Za-z0-9_@%+=:,./-]+$} $word]} {
        return $word
    }
    if {[string first ' $word] < 0} {
        return '$word'
    }
    return \"[string map {\\ \\\\ \" \\\" $ \\$ ` \\`} $word]\"
}

# poets::exec::cmdline --
#
#	The shell form of a command list.
#
# Arguments:
#	cmd	a list of words
#
# Results:
#	The words quoted with shquote and joined by spaces.

proc ::poets::exec::cmdline {cmd} {
    return [join [lmap word $cmd {shquote $word}]]
}

# poets::exec::is_local --
#
#	Whether HOST is this machine. POETS_HOSTNAME overrides the machine's
#	own name (for tests and for hosts known by an alias).
#
# Arguments:
#	host	a host name, or "" for this machine
#
# Results:
#	1 or 0.

proc ::poets::exec::is_local {host} {
    variable here
    set me [expr {[info exists ::env(POETS_HOSTNAME)] ? $::env(POETS_HOSTNAME) : [info hostname]}]
    set me [lindex [split $me .] 0]
    return [expr {$here || $host in {"" localhost} || [lindex [split $host .] 0] eq $me}]
}

# poets::exec::wrap --
#
#	The command as it runs from here: itself, or through ssh.
#
# Arguments:
#	host	where it must run
#	cmd	a list of words
#
# Results:
#	A list of words.

proc ::poets::exec::wrap {host cmd} {
    if {[is_local $host]} {
        return $cmd
    }
    return [list ssh $host [cmdline $cmd]]
}

# poets::exec::require --
#
#	Checks that a tool is installed on this machine.
#
# Arguments:
#	tool	the program name
#	hint	how to get it, for the error message
#
# Results:
#	None; raises {POETS TOOL MISSING tool} when the tool is not on PATH.

proc ::poets::exec::require {tool hint} {
    # auto_execok caches its answers; PATH may have changed since.
    unset -nocomplain ::auto_execs($tool)
    if {[auto_execok $tool] eq ""} {
        throw [list POETS TOOL MISSING $tool] "$tool not found on PATH ($hint)"
    }
}

# poets::exec::run --
#
#	Runs a command to completion (or prints it under --dry-run).
#
# Arguments:
#	host	where it runs ("" for here)
#	cmd	a list of words; the first is the program
#	args	-hint TEXT: how to install the program, for a missing tool
#
# Results:
#	The command's output ("" under --dry-run). A program missing here
#	raises {POETS TOOL MISSING program}, one missing on a remote host
#	(the shell's status 127) {POETS TOOL MISSING program host}, a host ssh
#	cannot reach (status 255) {POETS HOST UNREACHABLE host}, and any
#	other non-zero exit {POETS TOOL FAILED program status} with the last
#	lines of output.

proc ::poets::exec::run {host cmd args} {
    variable dryrun
    set full [wrap $host $cmd]
    if {$dryrun} {
        say [cmdline $full]
        return ""
    }
    set tool [lindex $cmd 0]
    set hint [expr {[dict exists $args -hint] ? [dict get $args -hint] : "install it or fix PATH"}]
    require [lindex $full 0] $hint
    say "+ [cmdline $full]"
    try {
        return [exec -ignorestderr -- {*}$full 2>@1]
    } trap CHILDSTATUS {out opts} {
        set status [lindex [dict get $opts -errorcode] 2]
        set out [string trim [regsub {\n?child process exited abnormally$} $out {}]]
        set tail [join [lrange [split $out \n] end-4 end] "\n    "]
        if {![is_local $host]} {
            # ssh's own failures and the remote shell's "not found".
            if {$status == 255} {
                throw [list POETS HOST UNREACHABLE $host] "cannot reach $host over ssh:\n    $tail"
            }
            if {$status == 127} {
                throw [list POETS TOOL MISSING $tool $host] "$tool not found on PATH on $host ($hint)"
            }
        }
        throw [list POETS TOOL FAILED $tool $status] \
                "$tool failed (exit status $status)[expr {$tail eq {} ? {} : ":\n    $tail"}]"
    } trap {POSIX} {msg} {
        throw [list POETS TOOL FAILED $tool] "$tool: $msg"
    }
}

# poets::exec::spawn --
#
#	Starts a daemon in the background on HOST, with its output in
#	RUNDIR/NAME.log and its process id in RUNDIR/NAME.pid.
#
# Arguments:
#	host	where it runs
#	rundir	directory for the log and pid files
#	cmd	a list of words
#
# Results:
#	As for run.

proc ::poets::exec::spawn {host rundir cmd} {
    set name [file tail [lindex $cmd 0]]
    set base [file join $rundir $name]
    # Only nohup goes to the background, so $! is the daemon's own pid.
    set script {mkdir -p "${0%/*}" || exit 1; nohup "$@" >"$0.log" 2>&1 </dev/null & echo $! >"$0.pid"}
    return [run $host [list sh -c $script $base {*}$cmd]]
}


# poets::exec::write_file --
#
#	Writes a generated file, or under --dry-run prints it as comments.
#
# Arguments:
#	file	its name
#	text	its contents
#
# Results:
#	None.

proc ::poets::exec::write_file {file text} {
    variable dryrun
    if {$dryrun} {
        say "# write $file:"
        foreach line [split [string trimright $text \n] \n] {
            say "#   $line"
        }
        return
    }
    set f [open $file w]
    puts -nonewline $f $text
    close $f
}


# poets::exec::is_dry --
#
#	Whether commands are being printed rather than run.
#
# Results:
#	1 or 0.

proc ::poets::exec::is_dry {} {
    variable dryrun
    return $dryrun
}

package provide poets::exec 1.0
