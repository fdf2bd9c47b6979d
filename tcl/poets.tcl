# poets.tcl --
#
#	The one entry point for running on real POETS boxes:
#
#	    tclsh tcl/poets.tcl SUBCOMMAND ?options?    (--help for each)
#
#	Each subcommand is a proc in the package for its concern; the
#	ensemble "poets" maps the names to them. Hardware facts come from the
#	generated board database ($(GEN)/boards.tcl), never from here.

lappend auto_path [file join [file dirname [file normalize [info script]]] poets]
foreach pkg {cli exec boards jtag flash power daemons check run} {
    package require poets::$pkg
}

namespace eval ::poets {
    namespace export main
    namespace ensemble create -command ::poets::cmd -map {
        program ::poets::jtag::program
        flash   ::poets::flash::flash
        wait    ::poets::jtag::wait
        power   ::poets::power::power
        check   ::poets::check::check
        daemons ::poets::daemons::daemons
        boxes   ::poets::boxes
        run     ::poets::run::run
    }
}

# poets::boxes --
#
#	The "boxes" subcommand: print the known boxes, one name per line.
#
# Arguments:
#	args	--help only
#
# Results:
#	None.

proc ::poets::boxes {args} {
    set opts [cli::parse boxes {} "" $args]
    if {[llength [dict get $opts args]]} {
        throw {POETS USAGE} "wrong # args: should be \"poets boxes\""
    }
    foreach name [boards::boxes] {
        exec::say $name
    }
}

# poets::usage --
#
#	The top-level help.
#
# Results:
#	The text.

proc ::poets::usage {} {
    return [join {
        "usage: tclsh tcl/poets.tcl SUBCOMMAND ?options?"
        "  program   configure FPGAs over JTAG from a .sof"
        "  flash     write a bitstream to the boards' flash"
        "  wait      wait until a box's FPGAs are visible on JTAG"
        "  power     switch a box's worker boards on or off"
        "  check     check a box's cables, FPGAs, bridge, daemons and place"
        "  daemons   start, stop or show a box's host daemons"
        "  boxes     list the known boxes"
        "  run       run an application built with op2c --target tinsel"
        "Every subcommand takes --help; most take --dry-run."
    } \n]
}

# poets::main --
#
#	Runs one command line and turns errors into messages and exit codes:
#	0 success, 1 failure, 2 usage error.
#
# Arguments:
#	argv	the words after the script name
#
# Results:
#	The exit code.

proc ::poets::main {argv} {
    if {[llength $argv] == 0 || [lindex $argv 0] in {--help -h help}} {
        puts [usage]
        return [expr {[llength $argv] == 0 ? 2 : 0}]
    }
    set sub [lindex $argv 0]
    if {$sub ni [dict keys [namespace ensemble configure ::poets::cmd -map]]} {
        puts stderr "poets: unknown subcommand \"$sub\": must be\
                [join [lsort [dict keys [namespace ensemble configure ::poets::cmd -map]]] {, }]"
        return 2
    }
    try {
        cmd {*}$argv
        return 0
    } trap {POETS HELP} {text} {
        puts $text
        return 0
    } trap {POETS USAGE} {msg} {
        puts stderr "poets $sub: $msg"
        return 2
    } trap {POETS} {msg} {
        puts stderr "poets $sub: $msg"
        return 1
    } on error {msg opts} {
        puts stderr "poets $sub: internal error: $msg\n[dict get $opts -errorinfo]"
        return 1
    }
}

if {[info exists argv0] && [file normalize $argv0] eq [file normalize [info script]]} {
    exit [::poets::main $argv]
}
