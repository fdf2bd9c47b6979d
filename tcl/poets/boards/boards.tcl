# boards.tcl --
#
#	The hardware database as the Tcl scripts see it: boardgen's dict of
#	every configuration in boards/ ($(GEN)/boards.tcl), and the boxes it
#	describes. Nothing here knows a hardware number of its own.

namespace eval ::poets::boards {
    namespace path ::poets
    namespace export load config boxes box cluster_box select require_file root
    # config name -> key -> value, once loaded.
    variable db {}
    # The keys the scripts read from every configuration, and the
    # configurations they read by name: load checks them all, so that a
    # stale or damaged database is one clear error, never a Tcl one later.
    variable required_keys {Kind HostName Board BoxHosts BoxMeshXLen BoxMeshYLen BoardsPerBox
        MeshXLenWithinBox MeshYLenWithinBox WorkerCables BridgeCable BridgePciId JtagPart JtagDevice
        BoardCtrlPort PcieStreamSocket PowerHubUsbId FlashProgrammingMode FlashOptionBit FlashOffset
        FlashBase FlashLoaderSof}
    variable required_configs {box cluster}
    # The repository root (tcl/poets/boards/../../..).
    variable root [file dirname [file dirname [file dirname [file dirname [file normalize [info script]]]]]]
}

# poets::boards::path --
#
#	Where the generated database is: $POETS_BOARDS_TCL, else
#	$BUILD/gen/boards.tcl under the repository (BUILD defaults to build).
#
# Results:
#	A file name.

proc ::poets::boards::path {} {
    variable root
    if {[info exists ::env(POETS_BOARDS_TCL)]} {
        return $::env(POETS_BOARDS_TCL)
    }
    set build [expr {[info exists ::env(BUILD)] ? $::env(BUILD) : "build"}]
    return [file join $root $build gen boards.tcl]
}

# poets::boards::load --
#
#	Reads the database (once).
#
# Results:
#	The dict; raises {POETS BOARDS MISSING} when it has not been built,
#	{POETS BOARDS MALFORMED} when it is not a dict of configurations
#	with every required key (see check).

proc ::poets::boards::load {} {
    variable db
    if {$db ne ""} {
        return $db
    }
    set file [path]
    if {![file isfile $file] || ![file readable $file]} {
        throw {POETS BOARDS MISSING} "board database $file not found:\
                run \"make\" first (or set POETS_BOARDS_TCL)"
    }
    set f [open $file]
    set text [regsub -all -line {^#.*$} [read $f] {}]
    close $f
    check $file $text
    set db $text
    return $db
}

# poets::boards::check --
#
#	Checks a database before it is used.
#
# Arguments:
#	file	its name, for messages
#	text	its contents without comments
#
# Results:
#	None; raises {POETS BOARDS MALFORMED file} with a one-line message
#	naming the file and the configuration or key.

proc ::poets::boards::check {file text} {
    variable required_keys
    variable required_configs
    set rebuild "(rebuild it with \"make\", or check POETS_BOARDS_TCL)"
    if {[catch {dict size $text} msg]} {
        throw [list POETS BOARDS MALFORMED $file] "board database $file is malformed: $msg $rebuild"
    }
    foreach name $required_configs {
        if {![dict exists $text $name]} {
            throw [list POETS BOARDS MALFORMED $file] "board database $file has no configuration \"$name\" $rebuild"
        }
    }
    dict for {name cfg} $text {
        if {[catch {dict size $cfg} msg]} {
            throw [list POETS BOARDS MALFORMED $file] "board database $file: configuration \"$name\" is\
                    malformed: $msg $rebuild"
        }
        foreach key $required_keys {
            if {![dict exists $cfg $key]} {
                throw [list POETS BOARDS MALFORMED $file] "board database $file: configuration \"$name\" has\
                        no key \"$key\" $rebuild"
            }
        }
    }
    # The cluster's shape: boxes and cluster_box divide by BoxMeshXLen.
    set cluster [dict get $text cluster]
    foreach key {BoxMeshXLen BoxMeshYLen} {
        set v [dict get $cluster $key]
        if {![string is entier -strict $v] || $v < 1} {
            throw [list POETS BOARDS MALFORMED $file] "board database $file: configuration \"cluster\":\
                    $key is \"$v\", not a positive integer $rebuild"
        }
    }
    if {[catch {llength [dict get $cluster BoxHosts]} msg]} {
        throw [list POETS BOARDS MALFORMED $file] "board database $file: configuration \"cluster\":\
                BoxHosts is not a list: $msg $rebuild"
    }
}

# poets::boards::config --
#
#	One configuration.
#
# Arguments:
#	name	a configuration name (box, cluster, ...)
#
# Results:
#	Its dict key -> value.

proc ::poets::boards::config {name} {
    set db [load]
    if {![dict exists $db $name]} {
        throw [list POETS BOARDS UNKNOWN $name] "unknown configuration \"$name\""
    }
    return [dict get $db $name]
}

# poets::boards::boxes --
#
#	The known boxes: the cluster's, row by row, then any box
#	configuration that names its own host.
#
# Results:
#	A list of box names (their host names).

proc ::poets::boards::boxes {} {
    set names [dict get [config cluster] BoxHosts]
    dict for {name cfg} [load] {
        set host [dict get $cfg HostName]
        if {[dict get $cfg Kind] eq "box" && $host ne "" && $host ni $names} {
            lappend names $host
        }
    }
    return $names
}

# poets::boards::box --
#
#	Describes one box.
#
# Arguments:
#	name	a box name, as boxes lists them
#
# Results:
#	The box configuration's dict plus Name, Host, Config (the name of
#	that configuration), BoxX and BoxY (its place in the cluster; 0 0 for a
#	box outside it). Raises {POETS BOX UNKNOWN}.

proc ::poets::boards::box {name} {
    set db [load]
    set cluster [config cluster]
    set index [lsearch -exact [dict get $cluster BoxHosts] $name]
    if {$index >= 0} {
        set cfg [dict merge [config box] {Config box}]
        set xlen [dict get $cluster BoxMeshXLen]
        dict set cfg BoxX [expr {$index % $xlen}]
        dict set cfg BoxY [expr {$index / $xlen}]
    } else {
        set cfg ""
        dict for {cname c} $db {
            if {[dict get $c Kind] eq "box" && [dict get $c HostName] eq $name} {
                set cfg [dict merge $c [list Config $cname BoxX 0 BoxY 0]]
            }
        }
        if {$cfg eq ""} {
            throw [list POETS BOX UNKNOWN $name] "unknown box \"$name\":\
                    known boxes are [join [boxes] {, }]"
        }
    }
    return [dict merge $cfg [list Name $name Host $name]]
}

# poets::boards::cluster_box --
#
#	The box at a place in the cluster.
#
# Arguments:
#	x y	the box's column and row
#
# Results:
#	Its name, or "" outside the cluster.

proc ::poets::boards::cluster_box {x y} {
    set cluster [config cluster]
    set xlen [dict get $cluster BoxMeshXLen]
    if {$x < 0 || $y < 0 || $x >= $xlen || $y >= [dict get $cluster BoxMeshYLen]} {
        return ""
    }
    return [lindex [dict get $cluster BoxHosts] [expr {$y * $xlen + $x}]]
}


# poets::boards::select --
#
#	The boxes a subcommand acts on, from its --box and --cluster options.
#
# Arguments:
#	opts	parsed options with keys box and cluster
#
# Results:
#	A list of box dicts (see box). Raises {POETS USAGE} unless exactly
#	one of the options is given.

proc ::poets::boards::select {opts} {
    set name [dict get $opts box]
    set all [dict get $opts cluster]
    if {($name eq "") == !$all} {
        throw {POETS USAGE} "give either --box NAME or --cluster"
    }
    if {$all} {
        return [lmap n [dict get [config cluster] BoxHosts] {box $n}]
    }
    return [list [box $name]]
}

# poets::boards::require_file --
#
#	Checks that an input file exists.
#
# Arguments:
#	what	what it is, for the message ("bitstream")
#	file	its name
#
# Results:
#	The file's absolute name (commands may run on another host); raises
#	{POETS FILE MISSING}.

proc ::poets::boards::require_file {what file} {
    if {![file isfile $file]} {
        throw [list POETS FILE MISSING $file] "$what $file not found"
    }
    return [file normalize $file]
}

# poets::boards::root --
#
#	The repository's top directory.
#
# Results:
#	An absolute directory name.

proc ::poets::boards::root {} {
    variable root
    return $root
}

package provide poets::boards 1.0
