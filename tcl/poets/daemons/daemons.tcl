# daemons.tcl --
#
#	Starting and stopping a box's host daemons: pciestreamd (PCIe DMA to
#	the bridge board) and boardctrld (DebugLink and power, on TCP port
#	BoardCtrlPort). Start follows Tinsel's order: workers off, dmabuffer
#	module loaded, the bridge's BAR found with lspci, then the daemons.
#	Each daemon's pid goes to a file in --rundir so stop kills exactly it.

package require poets::cli
package require poets::exec
package require poets::boards
package require poets::power

namespace eval ::poets::daemons {
    namespace path ::poets
    namespace export daemons bar
    variable names {pciestreamd boardctrld}
}

# poets::daemons::daemons --
#
#	The "daemons" subcommand: daemons start|stop --box NAME | --cluster.
#
# Arguments:
#	args	start or stop, then options
#
# Results:
#	None.

proc ::poets::daemons::daemons {args} {
    set spec {
        {--box "" NAME {the box whose daemons to manage}}
        {--cluster !flag "" {every box of the cluster}}
        {--bindir "" DIR {where pciestreamd and boardctrld are; default PATH}}
        {--rundir /tmp/poets DIR {where their logs and pid files go}}
        {--dry-run !flag "" {print the commands instead of running them}}
        {--here !flag "" {run on this machine even if it is not the box's host}}
    }
    set action [lindex $args 0]
    if {$action ni {start stop}} {
        if {$action eq "--help"} {
            throw {POETS HELP} [cli::usage daemons $spec start|stop]
        }
        throw {POETS USAGE} "wrong # args: should be \"poets daemons start|stop [cli::synopsis $spec {}]\""
    }
    set opts [cli::command daemons $spec [lrange $args 1 end]]
    foreach box [boards::select $opts] {
        $action $box [dict get $opts bindir] [dict get $opts rundir]
    }
}

# poets::daemons::bar --
#
#	Finds the bridge board's PCIe BAR.
#
# Arguments:
#	box	a box dict
#
# Results:
#	The BAR address as 0x..., or "\$BAR" under --dry-run. Raises
#	{POETS BOARD MISSING bridge} when lspci does not show the bridge.

proc ::poets::daemons::bar {box} {
    set id [dict get $box BridgePciId]
    set out [exec::run [dict get $box Host] [list lspci -d $id -v] -hint "install pciutils"]
    if {[exec::is_dry]} {
        return {$BAR}
    }
    if {![regexp {Memory at ([0-9a-fA-F]+)} $out -> addr]} {
        throw {POETS BOARD MISSING bridge} "box [dict get $box Name]: bridge board $id not on\
                PCIe (is it programmed? a reboot may be needed after programming it)"
    }
    return 0x$addr
}

# poets::daemons::start --
#
#	Starts one box's daemons.
#
# Arguments:
#	box	a box dict
#	bindir	directory of the daemons ("" for PATH)
#	rundir	directory for logs and pid files
#
# Results:
#	None.

proc ::poets::daemons::start {box bindir rundir} {
    set host [dict get $box Host]
    power::switch_box $box unbind
    exec::run $host {sudo modprobe dmabuffer}
    set bar [bar $box]
    exec::spawn $host $rundir [list [program $bindir pciestreamd] $bar]
    exec::spawn $host $rundir [list [program $bindir boardctrld]]
}

# poets::daemons::stop --
#
#	Stops one box's daemons by the pids start recorded.
#
# Arguments:
#	box, bindir, rundir	as for start
#
# Results:
#	None.

proc ::poets::daemons::stop {box bindir rundir} {
    variable names
    foreach name $names {
        set pidfile [file join $rundir $name].pid
        exec::run [dict get $box Host] [list sh -c {kill "$(cat "$0")" && rm -f "$0"} $pidfile]
    }
}

# poets::daemons::program --
#
#	A daemon's command name.
#
# Arguments:
#	bindir	its directory, or "" to find it on PATH
#	name	its name
#
# Results:
#	The name or the path.

proc ::poets::daemons::program {bindir name} {
    return [expr {$bindir eq "" ? $name : [file join $bindir $name]}]
}

package provide poets::daemons 1.0
