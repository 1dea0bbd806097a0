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

// LaunchOverhead is what a launch of blocks blocks of threadsPerBlock threads
// costs beyond its instructions, in SM cycles: the measured cycles of an empty
// kernel with that grid (block dispatch, ramp-up and drain), interpolated
// linearly in the number of blocks between the measured grids and from the
// nearest measured block size. Measured on the H200 only; other architectures
// use the same figures (modelled).
func LaunchOverhead(blocks, threadsPerBlock int) int64 {
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
