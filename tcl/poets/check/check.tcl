# check.tcl --
#
#	Checking a box: its place in the cluster and its neighbours, every
#	JTAG cable carrying the expected FPGA, the bridge board on PCIe and
#	the host daemons listening. Prints one "ok"/"FAIL" line per check and fails
#	when any check fails.

package require poets::cli
package require poets::exec
package require poets::boards
package require poets::jtag
package require poets::daemons

namespace eval ::poets::check {
    namespace path ::poets
    namespace export check topology
}

# poets::check::check --
#
#	The "check" subcommand.
#
# Arguments:
#	args	the subcommand's words
#
# Results:
#	None; raises {POETS CHECK FAILED} when a check fails.

proc ::poets::check::check {args} {
    set spec {
        {--box "" NAME {the box to check}}
        {--cluster !flag "" {every box of the cluster}}
        {--dry-run !flag "" {print the commands instead of running them}}
        {--here !flag "" {run on this machine even if it is not the box's host}}
    }
    set opts [cli::command check $spec $args]
    set failed 0
    foreach box [boards::select $opts] {
        exec::say "ok   [topology $box]"
        foreach test {cables bridge daemon} {
            try {
                set msg [$test $box]
                if {![exec::is_dry]} {
                    exec::say "ok   $msg"
                }
            } trap {POETS BOARD} {msg} {
                exec::say "FAIL $msg"
                incr failed
            }
        }
    }
    if {$failed} {
        throw {POETS CHECK FAILED} "$failed check(s) failed"
    }
}

# poets::check::topology --
#
#	Describes where a box sits: its boards and its neighbour boxes, to
#	compare with the cabling.
#
# Arguments:
#	box	a box dict
#
# Results:
#	One line of text.

proc ::poets::check::topology {box} {
    set x [dict get $box BoxX]
    set y [dict get $box BoxY]
    set w [dict get $box MeshXLenWithinBox]
    set h [dict get $box MeshYLenWithinBox]
    set around {}
    foreach {dir dx dy} {west -1 0 east 1 0 south 0 -1 north 0 1} {
        set n [boards::cluster_box [expr {$x + $dx}] [expr {$y + $dy}]]
        if {$n ne ""} {
            lappend around "$dir $n"
        }
    }
    return "box [dict get $box Name] at ($x,$y): workers x [expr {$x * $w}]-[expr {$x * $w + $w - 1}],\
            y [expr {$y * $h}]-[expr {$y * $h + $h - 1}]; neighbours: [join $around {, }]"
}

# poets::check::cables --
#
#	Every worker and bridge cable shows the box's FPGA.
#
# Arguments:
#	box	a box dict
#
# Results:
#	A message; raises {POETS BOARD ...} otherwise.

proc ::poets::check::cables {box} {
    set all [list {*}[dict get $box WorkerCables] {*}[dict get $box BridgeCable]]
    jtag::check_cables $box $all
    return "jtag: cables [join $all { }] each show a [dict get $box JtagPart]"
}

# poets::check::bridge --
#
#	The bridge board is on PCIe.
#
# Arguments:
#	box	a box dict
#
# Results:
#	A message.

proc ::poets::check::bridge {box} {
    return "pcie: bridge board at [daemons::bar $box]"
}

# poets::check::daemon --
#
#	pciestreamd and boardctrld are listening.
#
# Arguments:
#	box	a box dict
#
# Results:
#	A message; raises {POETS BOARD DAEMON ...} when one is not.

proc ::poets::check::daemon {box} {
    daemons::require_running $box
    return "daemons: pciestreamd and boardctrld listening on [dict get $box Host]"
}

package provide poets::check 1.0
