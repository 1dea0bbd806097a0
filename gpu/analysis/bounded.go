package analysis

import (
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/sim"
)

// Memory bounded per block, not per launch (issue 16): the simulator keeps a
// block's issue streams up to sim.MaxBlockIssues warp-instructions, and the
// accesses a warp queues for the timing model are bounded the same way. A
// block past either bound ends the timing model with a note naming it; the
// functional results are unaffected.

// boundedTiming feeds a timing run the blocks the simulator kept.
type boundedTiming struct {
	t      *timingRun
	sample *timingSample
}

// block hands a block's streams to the model, or abandons the model when
// the simulator did not keep them (nil streams).
func (bt *boundedTiming) block(b int, warps [][]sim.Issue) {
	if bt.t.err != nil {
		return
	}
	if warps == nil {
		abandonTiming(bt.t, b)
		return
	}
	bt.sample.count(b, warps)
	if !bt.sample.modelled(b) {
		for i := range bt.t.queues {
			bt.t.queues[i] = bt.t.queues[i][:0]
		}
		return
	}
	bt.t.block(b, warps)
}

// abandonTiming ends the timing model because block b is too long to log.
func abandonTiming(t *timingRun, b int) {
	if t.err == nil {
		t.err = fmt.Errorf("block %d issued more than %d warp-instructions or memory accesses in one warp; the timing model's input is kept per block and bounded, so such long blocks are not timed (%%timing off skips the model)", b, sim.MaxBlockIssues)
	}
	for i := range t.queues {
		t.queues[i] = nil
	}
}
