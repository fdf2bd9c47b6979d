# run.tcl --
#
#	Running an application on real boxes: the host executable that
#	op2c --target tinsel builds, started on the host of the run's first
#	box with the endpoints of the box daemons on its command line (see
#	"The host executable's command line" in docs/running-on-poets-boxes.md;
#	the simulator gives the same executable its own socket instead).

package require poets::cli
package require poets::exec
package require poets::boards
package require poets::daemons

namespace eval ::poets::run {
    namespace path ::poets
    namespace export run command_line
}

# poets::run::run --
#
#	The "run" subcommand.
#
# Arguments:
#	args	options, then "--" and the application's own arguments
#
# Results:
#	None.

proc ::poets::run::run {args} {
    set spec {
        {--box "" NAME {run on one box}}
        {--boxes "" XxY {run on the cluster's first X by Y boxes (box 0,0's host runs it)}}
        {--app "" NAME {the application: $BUILD/bin/NAME_VARIANT_tinsel (make run TARGET=tinsel)}}
        {--variant sp VARIANT {the application's variant}}
        {--exe "" FILE {the host executable, instead of --app}}
        {--dry-run !flag "" {print the commands instead of running them}}
        {--here !flag "" {run on this machine even if it is not the box's host}}
    }
    set opts [cli::parse run $spec "?-- arg ...?" $args]
    exec::configure -dryrun [dict get $opts dry-run] -here [dict get $opts here]
    lassign [select $opts] config boxes nx ny
    set exe [executable $opts]
    foreach box $boxes {
        daemons::require_running $box
    }
    set first [lindex $boxes 0]
    try {
        exec::run [dict get $first Host] [command_line $exe $config $boxes $nx $ny [dict get $opts args]]
    } trap {POETS TOOL FAILED env} {msg opts} {
        # The command starts with env (the runtime's settings): name the executable.
        throw [lreplace [dict get $opts -errorcode] 3 3 $exe] [regsub {^env } $msg "$exe "]
    }
}

# poets::run::select --
#
#	The boxes to run on.
#
# Arguments:
#	opts	parsed options
#
# Results:
#	{config boxes nx ny}: the configuration that describes the run's
#	geometry, the box dicts in row-major order, and the size.

proc ::poets::run::select {opts} {
    set one [dict get $opts box]
    set many [dict get $opts boxes]
    if {($one eq "") == ($many eq "")} {
        throw {POETS USAGE} "give either --box NAME or --boxes XxY"
    }
    if {$one ne ""} {
        set box [boards::box $one]
        return [list [dict get $box Config] [list $box] 1 1]
    }
    set cluster [boards::config cluster]
    set xlen [dict get $cluster BoxMeshXLen]
    set ylen [dict get $cluster BoxMeshYLen]
    if {![regexp {^([1-9][0-9]*)x([1-9][0-9]*)$} $many -> nx ny]} {
        throw {POETS USAGE} "expected --boxes XxY (such as 2x1) but got \"$many\""
    }
    if {$nx > $xlen || $ny > $ylen} {
        throw {POETS USAGE} "--boxes $many does not fit the cluster's ${xlen}x$ylen boxes"
    }
    set boxes {}
    for {set y 0} {$y < $ny} {incr y} {
        for {set x 0} {$x < $nx} {incr x} {
            lappend boxes [boards::box [boards::cluster_box $x $y]]
        }
    }
    return [list cluster $boxes $nx $ny]
}

# poets::run::command_line --
#
#	The host executable's command line on real boxes, its runtime told by
#	environment variables to use the HostLink engine: HostLink's data
#	channel is the first box's pciestreamd (an abstract UNIX socket on
#	that host), its debug channel every box's boardctrld. The application's
#	own arguments follow the executable unchanged.
#
# Arguments:
#	exe	the executable
#	config	the configuration naming the geometry
#	boxes	box dicts, row-major
#	nx ny	the box mesh
#	appargs	the application's own arguments
#
# Results:
#	A list of words.

proc ::poets::run::command_line {exe config boxes nx ny appargs} {
    set first [lindex $boxes 0]
    set debug [lmap box $boxes {string cat [dict get $box Host] : [dict get $box BoardCtrlPort]}]
    return [list env OP2_TINSEL_ENGINE=hostlink \
            OP2_TINSEL_HOSTLINK=unix:@[dict get $first PcieStreamSocket] \
            OP2_TINSEL_DEBUGLINK=[join $debug ,] OP2_TINSEL_CONFIG=$config \
            OP2_TINSEL_BOXES=${nx}x$ny $exe {*}$appargs]
}

# poets::run::executable --
#
#	The host executable, checked to exist (under --dry-run a missing one
#	is only noted, so the command can be shown before it is built).
#
# Arguments:
#	opts	parsed options
#
# Results:
#	Its absolute name.

proc ::poets::run::executable {opts} {
    set app [dict get $opts app]
    set exe [dict get $opts exe]
    if {($app eq "") == ($exe eq "")} {
        throw {POETS USAGE} "give either --app NAME or --exe FILE"
    }
    if {$exe eq ""} {
        set build [expr {[info exists ::env(BUILD)] ? $::env(BUILD) : "build"}]
        set exe [file join [boards::root] $build bin ${app}_[dict get $opts variant]_tinsel]
    }
    set exe [file normalize $exe]
    if {[file isfile $exe] && [file executable $exe]} {
        return $exe
    }
    if {[exec::is_dry]} {
        exec::say "# note: $exe is not built yet"
        return $exe
    }
    throw [list POETS FILE MISSING $exe] "host executable $exe not found: build it\
            with op2c --target tinsel first (make run APP=NAME TARGET=tinsel does)"
}

package provide poets::run 1.0
