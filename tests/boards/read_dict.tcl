# read_dict.tcl FILE: check that boardgen's Tcl output reads back as a dict
# with the expected values (exit status 1 and a message otherwise).
set f [open [lindex $argv 0]]
set d [regsub -all -line {^#.*$} [read $f] {}]
close $f
foreach {config key want} {
    cluster BoxHosts {byron coleridge defoe eliot fielding goethe heaney ibsen}
    cluster NumBoards 48
    box WorkerCables {1 2 3 4 5 6}
    board DeviceFamily {Stratix V}
    de10pro Part 1SX280HU2F50E1VG
} {
    set got [dict get $d $config $key]
    if {$got ne $want} {
        puts "$config $key: got {$got}, want {$want}"
        exit 1
    }
}
