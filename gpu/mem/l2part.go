package mem

import "math/bits"

// L2Partitioning describes an L2 split into two partitions joined by a fabric,
// as the H200's is (testdata/measured/l2/README.md): every line has a home
// partition (its point of coherence, where DRAM fills and atomics happen);
// each SM sends its requests to its near partition, which keeps copies of far
// lines it fetched over the fabric. A store invalidates the copy in the
// partition that is neither the writer's nor the home.
type L2Partitioning struct {
	// HomeBits: the home partition of a byte address is the parity of its bits in HomeBits.
	HomeBits uint64
	// Side is the set of SMs (bit s of word s/64) whose near partition is 1; the others' is 0.
	Side [4]uint64
	// Fabric is the extra round trip, in cycles, of a request served by the far partition
	// (an L2 hit there or a DRAM fill through it).
	Fabric int64
}

// DefaultL2Partitioning is the H200's, measured by scripts/l2/l2probe.cu
// (testdata/measured/l2: calibration data, checked by TestL2PartitioningMeasured).
var DefaultL2Partitioning = L2Partitioning{
	// Within a 2 MiB page the home is the parity of address bits 12, 13, 15, 17 and 19
	// (4,120 lines, none off). The H200 adds a term of the page's physical frame, which
	// programs cannot see and which is not a linear function of the virtual page; the
	// model stands in the parity of its own address bits 21 and up (not measured).
	HomeBits: 1<<12 | 1<<13 | 1<<15 | 1<<17 | 1<<19 | ^uint64(1<<21-1),
	// The SMs near partition 1 (those whose atomics and loads to a partition-1 line
	// are fast): side.csv; the same 66 SMs as DefaultAtomicCosts.Home.
	Side: [4]uint64{0x3f033f033f033f03, 0xf33f00fc03f00fc0, 0xf},
	// chase.csv, first touch from SM 0 of lines in L2: 284 cycles near home, 461 far
	// (medians); DRAM fills 538 and 720.
	Fabric: 177,
}

// home returns the home partition of line.
func (p *L2Partitioning) home(line uint64) int {
	return bits.OnesCount64(line*LineBytes&p.HomeBits) & 1
}

// side returns the near partition of SM sm.
func (p *L2Partitioning) side(sm int) int {
	if sm < 0 || sm >= 256 {
		return 0
	}
	return int(p.Side[sm/64] >> (sm % 64) & 1)
}
