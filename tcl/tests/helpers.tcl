# helpers.tcl --
#
#	Shared set-up for the poets test files: loads the packages from this
#	checkout, and provides stub tools on PATH and a capture of what the
#	exec layer prints.

package require tcltest 2.5
namespace import ::tcltest::*

set here [file dirname [file normalize [info script]]]
set top [file dirname [file dirname $here]]
lappend auto_path [file join $top tcl poets]
source [file join $top tcl poets.tcl]
if {![info exists ::env(POETS_BOARDS_TCL)]} {
    set build [expr {[info exists ::env(BUILD)] ? $::env(BUILD) : "build"}]
    set ::env(POETS_BOARDS_TCL) [file join $top $build gen boards.tcl]
}
set ::env(POETS_HOSTNAME) byron

# The tools the stubs stand in for.
set stubbed {quartus_pgm jtagconfig sof2flash nios2-flash-programmer sudo lspci ssh env sh}

# stubs_up --
#	Makes a fresh stub directory first on PATH, with a jtagconfig that
#	lists CABLES cables each carrying PART, and empty files x.sof and
#	S5_PFL.sof beside it. Clears the log and the failure list.
proc stubs_up {{cables 7} {part 5SGXEA7N2F45}} {
    global stubdir stubbed here
    set stubdir [makeDirectory stubs-run]
    foreach tool $stubbed {
        file copy -force [file join $here stubs stub] [file join $stubdir $tool]
    }
    set text ""
    for {set i 1} {$i <= $cables} {incr i} {
        append text "$i) DE5 \[1-1.$i\]\n  02B040DD   $part\(.|..)\n\n"
    }
    write [file join $stubdir jtagconfig.out] $text
    write [file join $stubdir x.sof] ""
    write [file join $stubdir S5_PFL.sof] ""
    set ::env(POETS_STUB_DIR) $stubdir
    set ::env(POETS_STUB_LOG) [file join $stubdir log]
    set ::env(POETS_STUB_FAIL) ""
    set ::env(POETS_STUB_STATUS) 1
    set ::env(PATH) $stubdir:$::env(SAVED_PATH)
    close [open $::env(POETS_STUB_LOG) w]
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
#	layer printed, one line each, with the stub dir as DIR.
proc poets {args} {
    global stubdir
    set ::printed {}
    ::poets::exec::configure -output {lappend ::printed} -dryrun 0 -here 0
    ::poets::cmd {*}$args
    return [string map [list $stubdir DIR] [join $::printed \n]]
}

if {![info exists ::env(SAVED_PATH)]} {
    set ::env(SAVED_PATH) $::env(PATH)
}
