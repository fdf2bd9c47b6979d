# run.tcl --
#
#	Running an application on real boxes: the host executable that
#	op2c --target tinsel builds, started on the first box's host with the
#	environment HostLink reads (HOSTLINK_BOXES_X/Y) instead of the
#	simulator's. The executable loads code.v and data.v from its own
#	directory, so it runs there.

package require poets::cli
package require poets::exec
package require poets::boards

namespace eval ::poets::run {
    namespace path ::poets
    namespace export run app_exe
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
        {--boxes "" XxY {run on the cluster's first X by Y boxes, from its host}}
        {--app "" NAME {the application, as built in build/tinsel/NAME/NAME}}
        {--exe "" FILE {the host executable, instead of --app}}
        {--dry-run !flag "" {print the command instead of running it}}
        {--here !flag "" {run on this machine even if it is not the box's host}}
    }
    set opts [cli::parse run $spec "?-- arg ...?" $args]
    exec::configure -dryrun [dict get $opts dry-run] -here [dict get $opts here]
    lassign [select $opts] first nx ny
    set exe [executable $opts]
    foreach name [names $first $nx $ny] {
        check_daemon [boards::box $name]
    }
    set env [list HOSTLINK_BOXES_X=$nx HOSTLINK_BOXES_Y=$ny POETS_BOARDS_DIR=[file join [boards::root] boards]]
    exec::run [dict get $first Host] [list env -C [file dirname $exe] {*}$env $exe {*}[dict get $opts args]]
}

# poets::run::select --
#
#	The boxes to run on.
#
# Arguments:
#	opts	parsed options
#
# Results:
#	{box-dict nx ny}: the box whose host runs the program, and the size.

proc ::poets::run::select {opts} {
    set one [dict get $opts box]
    set many [dict get $opts boxes]
    if {($one eq "") == ($many eq "")} {
        throw {POETS USAGE} "give either --box NAME or --boxes XxY"
    }
    if {$one ne ""} {
        return [list [boards::box $one] 1 1]
    }
    set cluster [boards::config cluster]
    if {![regexp {^([1-9][0-9]*)x([1-9][0-9]*)$} $many -> nx ny]} {
        throw {POETS USAGE} "expected --boxes XxY (such as 2x1) but got \"$many\""
    }
    if {$nx > [dict get $cluster BoxMeshXLen] || $ny > [dict get $cluster BoxMeshYLen]} {
        throw {POETS USAGE} "--boxes $many does not fit the cluster's\
                [dict get $cluster BoxMeshXLen]x[dict get $cluster BoxMeshYLen] boxes"
    }
    return [list [boards::box [boards::cluster_box 0 0]] $nx $ny]
}

# poets::run::names --
#
#	The boxes of a run.
#
# Arguments:
#	first	the first box's dict
#	nx ny	the size
#
# Results:
#	Their names.

proc ::poets::run::names {first nx ny} {
    if {$nx == 1 && $ny == 1} {
        return [list [dict get $first Name]]
    }
    set names {}
    for {set y 0} {$y < $ny} {incr y} {
        for {set x 0} {$x < $nx} {incr x} {
            lappend names [boards::cluster_box $x $y]
        }
    }
    return $names
}

# poets::run::executable --
#
#	The host executable, checked to exist with its code.v and data.v
#	(under --dry-run a missing one is only noted, since op2c's Tinsel
#	back end may not have built it yet).
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
        set exe [file join [boards::root] $build tinsel $app $app]
    }
    set exe [file normalize $exe]
    foreach file [list $exe [file join [file dirname $exe] code.v] [file join [file dirname $exe] data.v]] {
        if {[file isfile $file]} {
            continue
        }
        if {[exec::is_dry]} {
            exec::say "# note: $file is not built yet"
            continue
        }
        throw [list POETS FILE MISSING $file] "$file not found: build the application\
                with op2c --target tinsel first"
    }
    return $exe
}

# poets::run::check_daemon --
#
#	Checks that a box's boardctrld answers before HostLink needs it.
#
# Arguments:
#	box	a box dict
#
# Results:
#	None; raises {POETS BOARD DAEMON}.

proc ::poets::run::check_daemon {box} {
    if {[exec::is_dry]} {
        return
    }
    set host [dict get $box Host]
    set port [dict get $box BoardCtrlPort]
    if {[catch {close [socket $host $port]}]} {
        throw {POETS BOARD DAEMON} "box [dict get $box Name]: boardctrld does not answer on\
                $host:$port (start it: poets daemons start --box [dict get $box Name])"
    }
}

package provide poets::run 1.0
