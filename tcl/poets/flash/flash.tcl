# flash.tcl --
#
#	Writing a bitstream to the boards' configuration flash, so that the
#	workers configure themselves at power-up (HostLink power-cycles them).
#	Per board: load the parallel-flash-loader image over JTAG, then write
#	the flash image that sof2flash made once for the whole run.

package require poets::cli
package require poets::exec
package require poets::boards
package require poets::jtag

namespace eval ::poets::flash {
    namespace path ::poets
    namespace export flash
}

# poets::flash::flash --
#
#	The "flash" subcommand.
#
# Arguments:
#	args	the subcommand's words (--help lists them)
#
# Results:
#	None.

proc ::poets::flash::flash {args} {
    set spec {
        {--box "" NAME {the box whose boards to flash}}
        {--cluster !flag "" {every box of the cluster}}
        {--board "" N|bridge {one worker (its index from 0) or the bridge board; default every worker}}
        {--sof !required FILE {the bitstream to store}}
        {--pfl "" FILE {the flash-loader bitstream; default the board's FlashLoaderSof beside --sof}}
        {--dry-run !flag "" {print the commands instead of running them}}
        {--here !flag "" {run on this machine even if it is not the box's host}}
    }
    set opts [cli::command flash $spec $args]
    set sof [boards::require_file bitstream [dict get $opts sof]]
    set boxes [boards::select $opts]
    set board [lindex $boxes 0]
    if {[dict get $board FlashOffset] eq ""} {
        throw {POETS FLASH UNSUPPORTED} "no flash procedure is known for the [dict get $board Board]"
    }
    set pfl [dict get $opts pfl]
    if {$pfl eq ""} {
        set pfl [file join [file dirname $sof] [dict get $board FlashLoaderSof]]
    }
    set pfl [boards::require_file "flash loader image" $pfl]
    set image [file rootname $sof].flash
    foreach box $boxes {
        set wanted [jtag::targets $box [dict get $opts board]]
        jtag::check_cables $box $wanted
        make_image $box $sof $image
        foreach cable $wanted {
            write_board $box $cable $pfl $image
        }
    }
    exec::say "# Boards load the flash at power-up only with their FACTORY_LOAD pin set to 0."
}

# poets::flash::make_image --
#
#	Converts the bitstream into a flash image with sof2flash.
#
# Arguments:
#	box	a box dict (its host runs the tool; its Flash* keys say where)
#	sof, image	the bitstream and the image to write
#
# Results:
#	None.

proc ::poets::flash::make_image {box sof image} {
    exec::run [dict get $box Host] [list sof2flash --input=$sof --output=$image \
            --offset=[dict get $box FlashOffset] --pfl --optionbit=[dict get $box FlashOptionBit] \
            --programmingmode=[dict get $box FlashProgrammingMode]] \
            -hint "it comes with Quartus' Nios II EDS; put its bin directory on PATH"
}

# poets::flash::write_board --
#
#	Writes the flash of the FPGA on one cable.
#
# Arguments:
#	box	a box dict
#	cable	the JTAG cable
#	pfl	the flash-loader bitstream
#	image	the flash image
#
# Results:
#	None.

proc ::poets::flash::write_board {box cable pfl image} {
    set host [dict get $box Host]
    exec::run $host [list quartus_pgm -m jtag -c $cable -o "p;$pfl@[dict get $box JtagDevice]"] \
            -hint $::poets::jtag::quartus_hint
    exec::run $host [list nios2-flash-programmer -c $cable --base=[dict get $box FlashBase] $image] \
            -hint "it comes with Quartus' Nios II EDS; put its bin directory on PATH"
}

package provide poets::flash 1.0
