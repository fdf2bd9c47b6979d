# power.tcl --
#
#	Switching a box's worker boards on and off. Their power modules hang
#	off one USB hub (PowerHubUsbId); unbinding the hub from the kernel's
#	usb driver cuts their power, binding it restores it. One shell command
#	on the box host finds the hub in sysfs and does it.

package require poets::cli
package require poets::exec
package require poets::boards

namespace eval ::poets::power {
    namespace path ::poets
    namespace export power
    # $1 = bind or unbind, $2 = vendor:product; exit 3 when no hub matches.
    # Binding a bound hub (or unbinding an unbound one) fails harmlessly.
    variable script {cd /sys/bus/usb/devices || exit 1; n=0; for d in *; do [ "$(cat $d/idVendor 2>/dev/null):$(cat $d/idProduct 2>/dev/null)" = "$2" ] || continue; n=1; echo $d 2>/dev/null >/sys/bus/usb/drivers/usb/$1; done; [ $n = 1 ] || exit 3}
}

# poets::power::power --
#
#	The "power" subcommand: power on|off --box NAME | --cluster.
#
# Arguments:
#	args	on or off, then options
#
# Results:
#	None.

proc ::poets::power::power {args} {
    set spec {
        {--box "" NAME {the box to switch}}
        {--cluster !flag "" {every box of the cluster}}
        {--dry-run !flag "" {print the commands instead of running them}}
        {--here !flag "" {run on this machine even if it is not the box's host}}
    }
    lassign [cli::action power $spec {on off} $args] state opts
    foreach box [boards::select $opts] {
        switch_box $box [expr {$state eq "on" ? "bind" : "unbind"}]
    }
}

# poets::power::switch_box --
#
#	Binds or unbinds one box's power hub.
#
# Arguments:
#	box	a box dict
#	action	bind or unbind
#
# Results:
#	None; raises {POETS BOARD POWER} when the hub is not found.

proc ::poets::power::switch_box {box action} {
    variable script
    set hub [dict get $box PowerHubUsbId]
    try {
        exec::run [dict get $box Host] [list sudo sh -c $script poets-power $action $hub]
    } trap {POETS TOOL FAILED sudo 3} {} {
        throw {POETS BOARD POWER} "box [dict get $box Name]: power hub $hub not found on USB"
    }
}

package provide poets::power 1.0
