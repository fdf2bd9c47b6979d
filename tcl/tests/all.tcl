# all.tcl --
#
#	Runs every *.test file here, each in its own tclsh. tcltest exits 0
#	even when tests fail, so this exits 1 on any failure (or a test file
#	that does not run to its end) and ends with the plain "N passed,
#	N failed" line that tests/run_suites.sh adds up.

package require tcltest 2.5
namespace import ::tcltest::*

configure -testdir [file dirname [file normalize [info script]]] {*}$argv

# runAllTests resets its counters before returning; take the totals as it
# prints them.
proc grab_totals {cmd op} {
    if {[lindex $cmd 1] eq "1"} {
        set ::totals [array get ::tcltest::numTests]
    }
}
trace add execution ::tcltest::cleanupTests enter grab_totals

set totals {Passed 0 Failed 0}
set broken [runAllTests]
set passed [dict get $totals Passed]
set failed [dict get $totals Failed]
if {$broken && $failed == 0} {
    # A test file failed outside any test (it is named above).
    set failed 1
}
puts "$passed passed, $failed failed"
exit [expr {$failed ? 1 : 0}]
