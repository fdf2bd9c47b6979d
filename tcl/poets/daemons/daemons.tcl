# daemons.tcl --
#
#	Starting and stopping a box's host daemons: pciestreamd (PCIe DMA to
#	the bridge board) and boardctrld (DebugLink and power, on TCP port
#	BoardCtrlPort). Start follows Tinsel's order: workers off, dmabuffer
#	module loaded, the bridge's BAR found with lspci, then the daemons.
#	Each daemon's pid goes to a file in --rundir so stop kills exactly it.
#	Whether they run is read from the host's listening sockets (ss), not
#	by connecting: boardctrld powers the boards up for each client.

package require poets::cli
package require poets::exec
package require poets::boards
package require poets::power

namespace eval ::poets::daemons {
    namespace path ::poets
    namespace export daemons bar listening require_running
    variable names {pciestreamd boardctrld}
}

# poets::daemons::daemons --
#
#	The "daemons" subcommand: daemons start|stop|status --box NAME | --cluster.
#
# Arguments:
#	args	start, stop or status, then options
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
    lassign [cli::action daemons $spec {start stop status} $args] action opts
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
#	The BAR address as 0x..., or "<BAR>" under --dry-run. Raises
#	{POETS BOARD MISSING bridge} when lspci does not show the bridge.

proc ::poets::daemons::bar {box} {
    set id [dict get $box BridgePciId]
    set out [exec::run [dict get $box Host] [list lspci -d $id -v] -hint "install pciutils"]
    if {[exec::is_dry]} {
        return <BAR>
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
#	Stops one box's daemons by the pids start recorded. A daemon without
#	a pid file is reported and skipped (it was not started by start).
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
        try {
            exec::run [dict get $box Host] \
                    [list sh -c {[ -f "$0" ] || exit 3; kill "$(cat "$0")" && rm -f "$0"} $pidfile]
        } trap {POETS TOOL FAILED sh 3} {} {
            exec::say "# $name: no pid file $pidfile on [dict get $box Host]; not stopped"
        }
    }
}

# poets::daemons::status --
#
#	Prints whether one box's daemons are listening.
#
# Arguments:
#	box, bindir, rundir	as for start
#
# Results:
#	None; raises {POETS BOARD DAEMON} when one is not.

proc ::poets::daemons::status {box bindir rundir} {
    set down [listening $box]
    if {[exec::is_dry]} {
        return
    }
    foreach {name where} [endpoints $box] {
        if {$name ni $down} {
            exec::say "$name: listening on $where"
        }
    }
    require_running $box $down
}

# poets::daemons::endpoints --
#
#	Where a box's daemons listen.
#
# Arguments:
#	box	a box dict
#
# Results:
#	A dict daemon -> endpoint, as ss shows it.

proc ::poets::daemons::endpoints {box} {
    return [list pciestreamd @[dict get $box PcieStreamSocket] \
            boardctrld *:[dict get $box BoardCtrlPort]]
}

# poets::daemons::listening --
#
#	Reads the listening sockets of a box's host.
#
# Arguments:
#	box	a box dict
#
# Results:
#	The daemons that are not listening (none under --dry-run).

proc ::poets::daemons::listening {box} {
    set out [exec::run [dict get $box Host] {ss -Hlntx} -hint "install iproute2"]
    set fields [concat {*}[lmap line [split $out \n] {regexp -all -inline {\S+} $line}]]
    set down {}
    if {[exec::is_dry]} {
        return $down
    }
    foreach {name where} [endpoints $box] {
        if {![llength [lsearch -all -inline -glob $fields $where]]} {
            lappend down $name
        }
    }
    return $down
}

# poets::daemons::require_running --
#
#	Checks that a box's daemons are listening.
#
# Arguments:
#	box	a box dict
#	down	the daemons known not to be (default: ask the host)
#
# Results:
#	None; raises {POETS BOARD DAEMON name ...} naming the missing ones.

proc ::poets::daemons::require_running {box {down ?}} {
    if {$down eq "?"} {
        set down [listening $box]
    }
    if {[llength $down]} {
        set where [join [lmap name $down {dict get [endpoints $box] $name}] {, }]
        throw [list POETS BOARD DAEMON {*}$down] "box [dict get $box Name]: [join $down { and }]\
                not running on [dict get $box Host] (nothing listens on $where; start them with\
                \"tclsh tcl/poets.tcl daemons start --box [dict get $box Name]\")"
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
