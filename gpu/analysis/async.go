package analysis

import (
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/timing"
)

// The replay's asynchronous copies and mbarrier waits (docs/tensor-cores.md, "Timing of
// the asynchronous copies"): the simulator records each mbarrier and bulk-copy effect
// with the phase it contributed to or waited for (sim.AsyncRec); the timing model gets
// them as timing.AsyncOps at the positions of the replayed streams. A failed try_wait or
// test_wait and the instructions until the warp's next wait (its retry loop) are not
// replayed: on the H200 a try_wait suspends the warp until the phase completes (the
// model holds the successful wait instead).

// asyncRecs keeps the running block's records for block (sim.Config.Async).
func (t *timingRun) asyncRecs(_ int, warps [][]sim.AsyncRec) { t.async = warps }

// asyncJoin turns a block's records into AsyncOps while block builds its streams.
type asyncJoin struct {
	recs [][]sim.AsyncRec
	w, k int  // the warp being built and its next record
	skip bool // inside a failed wait's retry loop
	ops  []timing.AsyncOp
}

// joinAsync returns the join of the running block's records (nil when it has none).
func (t *timingRun) joinAsync(nwarps int) *asyncJoin {
	recs := t.async
	t.async = nil
	n := 0
	for _, r := range recs {
		n += len(r)
	}
	if n == 0 || len(recs) > nwarps {
		return nil
	}
	return &asyncJoin{recs: recs, w: -1}
}

// issue reports whether issue i of warp w is replayed, at position pos of its stream,
// and records its ops if so. Issues come in order, warp by warp.
func (j *asyncJoin) issue(w, i int, pos int32) bool {
	if j == nil || w >= len(j.recs) {
		return true
	}
	if w != j.w {
		j.w, j.k, j.skip = w, 0, false
	}
	rs := j.recs[w]
	for j.k < len(rs) && int(rs[j.k].Issue) < i {
		j.k++
	}
	k := j.k
	for j.k < len(rs) && int(rs[j.k].Issue) == i {
		j.k++
	}
	mine := rs[k:j.k]
	for _, r := range mine {
		switch r.Kind {
		case sim.AsyncFail:
			j.skip = true
			return false
		}
	}
	if j.skip && len(mine) == 0 {
		return false
	}
	j.skip = false
	for _, r := range mine {
		op := timing.AsyncOp{Warp: int32(w), Pos: pos, Bar: r.Bar, Phase: r.Phase, Bytes: r.Bytes}
		if r.Peer > 0 { // another block's mbarrier: the model finds it in the cluster
			op.Bar, op.Peer = r.PeerBar, r.Peer
		}
		switch r.Kind {
		case sim.AsyncArrive:
			op.Kind = timing.AsyncArrive
		case sim.AsyncLoad:
			op.Kind = timing.AsyncLoad
		case sim.AsyncStore:
			op.Kind = timing.AsyncStore
		case sim.AsyncWait:
			op.Kind = timing.AsyncWait
		default:
			continue
		}
		j.ops = append(j.ops, op)
	}
	return true
}
