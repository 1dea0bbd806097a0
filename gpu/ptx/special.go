package ptx

// specialRegs maps each predefined identifier of the PTX ISA (its "Special
// Registers" chapter and the predefined-identifier table of "Identifiers",
// checked against ISA 9.x) to whether it takes a component (.x, .y, .z).
// %envreg0..%envreg31 are matched by envreg; WARP_SZ is the one without a %.
var specialRegs = map[string]bool{
	"WARP_SZ": false,
	"%tid":    true, "%ntid": true, "%ctaid": true, "%nctaid": true,
	"%clusterid": true, "%nclusterid": true, "%cluster_ctaid": true, "%cluster_nctaid": true,
	"%laneid": false, "%warpid": false, "%nwarpid": false, "%smid": false, "%nsmid": false,
	"%gridid": false, "%lanemask_eq": false, "%lanemask_le": false, "%lanemask_lt": false,
	"%lanemask_ge": false, "%lanemask_gt": false, "%clock": false, "%clock_hi": false,
	"%clock64": false, "%globaltimer": false, "%globaltimer_lo": false, "%globaltimer_hi": false,
	"%total_smem_size": false, "%dynamic_smem_size": false, "%aggr_smem_size": false,
	"%reserved_smem_offset_begin": false, "%reserved_smem_offset_end": false,
	"%reserved_smem_offset_cap": false, "%reserved_smem_offset_0": false, "%reserved_smem_offset_1": false,
	"%is_explicit_cluster": false, "%cluster_ctarank": false, "%cluster_nctarank": false,
	"%current_graph_exec": false, "%pm0": false, "%pm1": false, "%pm2": false, "%pm3": false,
	"%pm4": false, "%pm5": false, "%pm6": false, "%pm7": false, "%pm0_64": false, "%pm1_64": false,
	"%pm2_64": false, "%pm3_64": false, "%pm4_64": false, "%pm5_64": false, "%pm6_64": false, "%pm7_64": false,
}

// isSpecial reports whether name is a special register (%envreg0..31 included).
func isSpecial(name string) bool {
	if _, ok := specialRegs[name]; ok {
		return true
	}
	return envreg(name) >= 0
}

// envreg returns N for "%envregN" (0..31), else -1.
func envreg(name string) int {
	const pre = "%envreg"
	if len(name) <= len(pre) || name[:len(pre)] != pre || len(name) > len(pre)+2 {
		return -1
	}
	n := 0
	for _, c := range []byte(name[len(pre):]) {
		if !isDigit(c) {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	if n > 31 || (len(name) == len(pre)+2 && name[len(pre)] == '0') {
		return -1
	}
	return n
}

// IsSpecialReg reports whether name ("%tid", "%laneid", "WARP_SZ") is a PTX predefined identifier.
func IsSpecialReg(name string) bool { return isSpecial(name) }

// specialCompOK reports whether the special register takes the component
// (vector registers may also be used whole, without a component).
func specialCompOK(name, comp string) bool {
	vec := specialRegs[name]
	if !vec {
		return comp == ""
	}
	return comp == "" || comp == "x" || comp == "y" || comp == "z"
}
