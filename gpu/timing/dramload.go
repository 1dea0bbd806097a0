package timing

import "math"

// DRAM queueing under load (calibration: testdata/measured/dram, latency.cu and
// latency2.cu on the H200, 2026-12-02). Kernels shaped like vector_add, whose
// warps time their loads with clock64, measured with 1, 2, 4 and 8 blocks
// resident per SM (65,536 blocks), mean load latencies of
//   - one load, no store: 724, 727, 733, 760 cycles (DRAM reads at 6-40% of the
//     modelled rate);
//   - two loads, no store: 825, 835, 867, 952 (11-69%);
//   - one load and a store: 758, 800, 886, 987; two loads and a store: 882, 939,
//     1,024, 1,267 (the stores' DRAM writes, ncu dram__bytes_write, delay the
//     reads more than reads do: read-write turnarounds on the DRAM bus),
//
// where a dependent pointer chase (nothing else running) takes 695. The reads
// alone follow a single-server queue's wait, DRAMQueueCycles x u/(1-u) (60 fits
// both the one-load and the two-load rows); the model uses that with the
// utilisation u counting each written byte as DRAMWriteWeight read bytes (1.5,
// between the copy's 1.9 and the a + b -> c's 1.3 that the same form needs). u is
// the DRAM traffic of the last dramLoadWindow cycles (exponentially weighted:
// loads, stores, write-backs as the caches make them) over the modelled rate,
// at most dramMaxLoad. All three constants are calibration; the scale set
// (testdata/golden/scale_sm90.json) is the validation. Not modelled: the ~100
// cycles a warp's second independent DRAM load adds to its wait at any load
// (825 vs 724 with one block resident).
const (
	DRAMQueueCycles = 60
	DRAMWriteWeight = 1.5
	dramLoadWindow  = 4096.0
	dramMaxLoad     = 0.95
)

// dramLoad keeps the recent DRAM traffic of a launch as an exponentially
// weighted byte count, writes weighted.
type dramLoad struct {
	bytes float64 // weighted bytes of the last dramLoadWindow cycles
	at    int64   // cycle of the last update
}

// add records n bytes moved to or from DRAM at cycle now, w of them written
// (now never decreases).
func (d *dramLoad) add(now int64, n, w float64) {
	if now > d.at {
		d.bytes *= math.Exp(-float64(now-d.at) / dramLoadWindow)
		d.at = now
	}
	d.bytes += n - w + DRAMWriteWeight*w
}

// extra is a DRAM load's queueing delay at the recent utilisation of a DRAM
// rate of bw bytes a cycle.
func (d *dramLoad) extra(bw float64) int64 {
	u := min(dramMaxLoad, d.bytes/(dramLoadWindow*bw))
	return int64(DRAMQueueCycles*u/(1-u) + 0.5)
}
