# all.tcl --
#
#	Runs every *.test file here. tcltest exits 0 even when tests fail, so
#	this exits 1 on any failure, and ends with the plain "N passed,
#	N failed" line tests/run_suites.sh adds up.

package require tcltest 2.5
namespace import ::tcltest::*

configure -testdir [file dirname [file normalize [info script]]] -singleproc 1 {*}$argv
set failed [runAllTests]
set passed $::tcltest::numTests(Passed)
set nfailed $::tcltest::numTests(Failed)
puts "$passed passed, $nfailed failed"
exit [expr {$failed || $nfailed ? 1 : 0}]
