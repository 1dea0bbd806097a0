package timing

// emptyKernelCycles is sm__cycles_elapsed.max of an empty kernel on the H200,
// per threads per block, as (blocks in the grid, cycles) in increasing grid order:
// testdata/measured/launch_overhead/launch_overhead_sm90.csv (made by its run.sh
// with Nsight Compute; TestLaunchOverheadTable checks this copy against it).
var emptyKernelCycles = map[int][][2]int64{
	32:   {{1, 2570}, {2, 2223}, {4, 2602}, {8, 2272}, {16, 2539}, {32, 2647}, {66, 2673}, {132, 2669}, {264, 2825}, {528, 3002}, {1056, 3516}, {4224, 6396}},
	256:  {{1, 2360}, {2, 2484}, {4, 2481}, {8, 2422}, {16, 2541}, {32, 2628}, {66, 2667}, {132, 2646}, {264, 2647}, {528, 3005}, {1056, 3522}, {4224, 6416}},
	1024: {{1, 2426}, {2, 2455}, {4, 2517}, {8, 2801}, {16, 2566}, {32, 2675}, {66, 2685}, {132, 2707}, {264, 2752}, {528, 3276}, {1056, 3906}, {4224, 7714}},
}

// BoostPermille converts the table above, measured under Nsight Compute's
// default clock control (clocks locked to base: 2,570 cycles in 1,760 ns,
// 1.46 GHz), to the clocks of the golden and scale launches (--clock-control
// none, 1.91-2.02 GHz): the mean, over the empty kernels of
// testdata/timing_startup/startup.tar.gz (1x32, 132x256, 1056x256, measured
// twice with --clock-control none, calibration data), of their cycles over the
// table's (1.186, 1.316, 1.241; TestBoostFactorFromStartup re-derives it).
// Divide by it to compare with launches measured with the clocks locked to base.
const BoostPermille = 1248

// BoostClockGHz separates the two conditions by a launch's measured clock
// (cycles over gpu__time_duration): below it, clocks locked to base (1.37-1.64 GHz
// seen), above it unlocked (1.91-2.02 GHz).
const BoostClockGHz = 1.75

// overlapBlocks is the grid beyond which an empty kernel's cycles grow
// linearly with its blocks (0.9-1.2 cycles a block: block dispatch), the
// largest measured grid before that slope; dispatching those further blocks
// overlaps the work of the blocks already running (LaunchHidden).
const overlapBlocks = 1056

// LaunchOverhead is what a launch of blocks blocks of threadsPerBlock threads
// costs beyond its instructions, in SM cycles: the measured cycles of an empty
// kernel with that grid (block dispatch, ramp-up and drain), interpolated
// linearly in the number of blocks between the measured grids and from the
// nearest measured block size, at the clocks the golden launches ran at
// (BoostPermille). Measured on the H200 only; other architectures use the same
// figures (modelled).
func LaunchOverhead(blocks, threadsPerBlock int) int64 {
	return tableOverhead(blocks, threadsPerBlock) * BoostPermille / 1000
}

// LaunchHidden is the part of LaunchOverhead that a kernel of kernel cycles
// hides: the dispatch of the blocks beyond overlapBlocks runs while earlier
// blocks work, so the launch takes LaunchOverhead(min(blocks, overlapBlocks))
// plus the longer of the kernel and that further dispatch. Modelled (the
// H200's dispatch rate under load was not measured).
func LaunchHidden(kernel int64, blocks, threadsPerBlock int) int64 {
	if blocks <= overlapBlocks || kernel <= 0 {
		return 0
	}
	extra := LaunchOverhead(blocks, threadsPerBlock) - LaunchOverhead(overlapBlocks, threadsPerBlock)
	return max(0, min(kernel, extra))
}

// LaunchFixed is the part of LaunchOverhead no kernel hides: that of a grid of
// at most overlapBlocks blocks (the rest, the dispatch of further blocks, runs
// while earlier blocks work: LaunchHidden).
func LaunchFixed(blocks, threadsPerBlock int) int64 {
	return LaunchOverhead(min(blocks, overlapBlocks), threadsPerBlock)
}

// tableOverhead is emptyKernelCycles interpolated (the table's clocks).
func tableOverhead(blocks, threadsPerBlock int) int64 {
	best := 0
	for b := range emptyKernelCycles {
		if best == 0 || abs(b-threadsPerBlock) < abs(best-threadsPerBlock) || (abs(b-threadsPerBlock) == abs(best-threadsPerBlock) && b < best) {
			best = b
		}
	}
	pts := emptyKernelCycles[best]
	if len(pts) == 0 || blocks <= 0 {
		return 0
	}
	g := int64(blocks)
	if g <= pts[0][0] {
		return pts[0][1]
	}
	for i := 1; i < len(pts); i++ {
		if g <= pts[i][0] {
			a, b := pts[i-1], pts[i]
			return a[1] + (b[1]-a[1])*(g-a[0])/(b[0]-a[0])
		}
	}
	// Beyond the largest grid: extend the last segment's per-block slope.
	a, b := pts[len(pts)-2], pts[len(pts)-1]
	return b[1] + (b[1]-a[1])*(g-b[0])/(b[0]-a[0])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
