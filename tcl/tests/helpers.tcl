# helpers.tcl --
#
#	Shared set-up for the poets test files: loads the packages from this
#	checkout and the board database of the build under test ($BUILD, as
#	tests/run_suites.sh sets it), puts stub tools first on PATH, and
#	captures what the exec layer prints.

package require tcltest 2.5
namespace import ::tcltest::*

set here [file dirname [file normalize [info script]]]
set top [file dirname [file dirname $here]]
source [file join $top tcl poets.tcl]
if {![info exists ::env(POETS_BOARDS_TCL)]} {
    set build [expr {[info exists ::env(BUILD)] ? $::env(BUILD) : "build"}]
    set ::env(POETS_BOARDS_TCL) [file join $top $build gen boards.tcl]
}
if {![file readable $::env(POETS_BOARDS_TCL)]} {
    puts stderr "helpers.tcl: $::env(POETS_BOARDS_TCL) not found: run make first"
    exit 1
}
# The machine the tests pretend to be: byron's box runs here, the others
# through (stub) ssh.
set ::env(POETS_HOSTNAME) byron
if {![info exists ::env(SAVED_PATH)]} {
    set ::env(SAVED_PATH) $::env(PATH)
}

# The tools the stubs stand in for.
set stubbed {quartus_pgm jtagconfig sof2flash nios2-flash-programmer sudo lspci ss ssh sh}

# box KEY --
#	A key of the box configuration (the stubs answer as a box would).
proc box {key} {
    return [dict get [::poets::boards::config box] $key]
}

# stubs_up --
#	Makes a fresh stub directory first on PATH, in which jtagconfig lists
#	every board of a box, lspci shows the bridge, ss shows both daemons
#	listening, and x.sof and the flash-loader image exist. Clears the log
#	and the failure settings.
proc stubs_up {} {
    global stubdir stubbed here
    set tmp [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}]
    set stubdir [file join $tmp poets-tests-[pid]]
    file delete -force $stubdir
    file mkdir $stubdir
    foreach tool $stubbed {
        file copy -force [file join $here stubs stub] [file join $stubdir $tool]
    }
    write [file join $stubdir lspci.out] \
            "01:00.0 Unassigned class: Altera Corporation Device\n\tMemory at f7000000 (32-bit, non-prefetchable)\n"
    write [file join $stubdir ss.out] [join [list \
            "u_str LISTEN 0 5 @[box PcieStreamSocket] 12345 * 0" \
            "tcp LISTEN 0 5 0.0.0.0:[box BoardCtrlPort] 0.0.0.0:*"] \n]\n
    write [file join $stubdir x.sof] ""
    write [file join $stubdir [box FlashLoaderSof]] ""
    array set ::env [list POETS_STUB_DIR $stubdir POETS_STUB_LOG [file join $stubdir log] \
            POETS_STUB_FAIL "" POETS_STUB_FAIL_ARGS * POETS_STUB_STATUS 1 \
            POETS_STUB_FPGAS [box BoardsPerBox] POETS_STUB_PART [box JtagPart] \
            PATH $stubdir:$::env(SAVED_PATH)]
    write $::env(POETS_STUB_LOG) ""
    set ::poets::boards::db {}
    set ::printed {}
    ::poets::exec::configure -dryrun 0 -here 0 -output {lappend ::printed}
}

proc stubs_down {} {
    global stubdir
    set ::env(PATH) $::env(SAVED_PATH)
    file delete -force $stubdir
}

proc write {file text} {
    set f [open $file w]
    puts -nonewline $f $text
    close $f
}

# stublog --
#	The commands the stubs saw, one per line, with the stub dir as DIR.
proc stublog {} {
    global stubdir
    set f [open $::env(POETS_STUB_LOG)]
    set text [string trimright [read $f] \n]
    close $f
    return [string map [list $stubdir DIR] $text]
}

# poets --
#	Runs a poets subcommand in this interpreter and returns what the exec
#	layer printed, one line each, with the stub dir as DIR. Errors
#	propagate with their messages (stub dir as DIR) and error codes.
proc poets {args} {
    global stubdir
    set ::printed {}
    ::poets::exec::configure -output {lappend ::printed} -dryrun 0 -here 0
    try {
        ::poets::cmd {*}$args
    } on error {msg opts} {
        return -options [dict remove $opts -errorinfo] [string map [list $stubdir DIR] $msg]
    }
    return [string map [list $stubdir DIR] [join $::printed \n]]
}

# errorcode --
#	Runs a poets subcommand that must fail and returns its error code.
proc errorcode {args} {
    try {
        poets {*}$args
    } on error {msg opts} {
        return [dict get $opts -errorcode]
    }
    return "no error"
}

# poets_exit --
#	Runs tclsh tcl/poets.tcl as a user would and returns
#	{exit-status stdout stderr}, the stub dir shown as DIR.
proc poets_exit {args} {
    global top stubdir
    set out [file join $stubdir stdout]
    set err [file join $stubdir stderr]
    set status 0
    try {
        exec [info nameofexecutable] [file join $top tcl poets.tcl] {*}$args >$out 2>$err
    } trap CHILDSTATUS {- opts} {
        set status [lindex [dict get $opts -errorcode] 2]
    }
    return [list $status [readback $out] [readback $err]]
}

proc readback {file} {
    global stubdir
    set f [open $file]
    set text [string trimright [read $f] \n]
    close $f
    return [string map [list $stubdir DIR] $text]
}
