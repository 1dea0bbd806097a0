package ptx

import (
	"fmt"
	"sort"
)

// Block is a basic block: the instructions [Start, End) of Func.Insts, with
// the indices of its successor and predecessor blocks.
type Block struct {
	Start, End   int
	Succs, Preds []int
	// Exit says control can leave the function from this block (ret, exit,
	// trap, or falling off the end of the body).
	Exit bool
}

// CFG is the control-flow graph of one function with immediate post-dominators.
type CFG struct {
	Func    *Func
	Blocks  []Block
	BlockOf []int // instruction index -> block index
	IPDom   []int // per block: its immediate post-dominator; -1 = the virtual exit
}

// BuildCFG builds the control-flow graph of f and its post-dominator tree.
// Branch targets come from labels; brx.idx targets from f.Targets. Calls do
// not end a block. A guarded ret, exit or trap has both the exit and the
// fall-through as successors.
func BuildCFG(f *Func) (*CFG, error) {
	if f == nil {
		return nil, fmt.Errorf("cfg: nil function")
	}
	n := len(f.Insts)
	g := &CFG{Func: f, BlockOf: make([]int, n)}
	if n == 0 {
		return g, nil
	}
	labels := make(map[string]int, len(f.Labels))
	for _, l := range f.Labels {
		if l.Index < 0 || l.Index > n {
			return nil, fmt.Errorf("cfg: %s: label %s index %d out of range", f.Name, l.Name, l.Index)
		}
		labels[l.Name] = l.Index
	}
	// targets[i] are the instruction indices instruction i may jump to
	// (n means the end of the body); term[i] says i ends a block.
	leader := make([]bool, n+1)
	leader[0] = true
	targets := make([][]int, n)
	for i, in := range f.Insts {
		switch in.Op {
		case "bra":
			if len(in.Args) != 1 || in.Args[0].Kind != OpLabel {
				return nil, fmt.Errorf("cfg: %s: line %d: bra needs one label operand", f.Name, in.Pos.Line)
			}
			t, ok := labels[in.Args[0].Name]
			if !ok {
				return nil, fmt.Errorf("cfg: %s: line %d: undefined label %s", f.Name, in.Pos.Line, in.Args[0].Name)
			}
			targets[i] = []int{t}
		case "brx":
			ts, err := brxTargets(f, in, labels)
			if err != nil {
				return nil, err
			}
			targets[i] = ts
		case "ret", "exit", "trap":
		default:
			continue
		}
		leader[i+1] = true
		for _, t := range targets[i] {
			leader[t] = true
		}
	}
	for _, l := range f.Labels {
		leader[l.Index] = true
	}
	for i := 0; i < n; i++ {
		if leader[i] {
			g.Blocks = append(g.Blocks, Block{Start: i})
		}
		g.BlockOf[i] = len(g.Blocks) - 1
	}
	for b := range g.Blocks {
		if b+1 < len(g.Blocks) {
			g.Blocks[b].End = g.Blocks[b+1].Start
		} else {
			g.Blocks[b].End = n
		}
	}
	blockAt := func(i int) int {
		if i >= n {
			return -1
		}
		return g.BlockOf[i]
	}
	for b := range g.Blocks {
		blk := &g.Blocks[b]
		last := f.Insts[blk.End-1]
		guarded := last.Guard != ""
		var succ []int
		exit := false
		fall := true
		switch last.Op {
		case "bra", "brx":
			for _, t := range targets[blk.End-1] {
				if s := blockAt(t); s >= 0 {
					succ = append(succ, s)
				} else {
					exit = true
				}
			}
			fall = guarded
		case "ret", "exit", "trap":
			exit = true
			fall = guarded
		}
		if fall {
			if s := blockAt(blk.End); s >= 0 {
				succ = append(succ, s)
			} else {
				exit = true
			}
		}
		blk.Succs = dedup(succ)
		blk.Exit = exit
	}
	for b := range g.Blocks {
		for _, s := range g.Blocks[b].Succs {
			g.Blocks[s].Preds = append(g.Blocks[s].Preds, b)
		}
	}
	g.IPDom = postDominators(g.Blocks)
	return g, nil
}

// brxTargets resolves "brx.idx index, tlist;" through the .branchtargets list.
func brxTargets(f *Func, in *Inst, labels map[string]int) ([]int, error) {
	if len(in.Args) != 2 || in.Args[1].Kind != OpLabel {
		return nil, fmt.Errorf("cfg: %s: line %d: brx.idx needs an index and a .branchtargets label", f.Name, in.Pos.Line)
	}
	for _, t := range f.Targets {
		if t.Name != in.Args[1].Name || t.Call {
			continue
		}
		out := make([]int, 0, len(t.Labels))
		for _, l := range t.Labels {
			i, ok := labels[l]
			if !ok {
				return nil, fmt.Errorf("cfg: %s: line %d: undefined label %s in %s", f.Name, in.Pos.Line, l, t.Name)
			}
			out = append(out, i)
		}
		return out, nil
	}
	return nil, fmt.Errorf("cfg: %s: line %d: no .branchtargets list %s", f.Name, in.Pos.Line, in.Args[1].Name)
}

func dedup(s []int) []int {
	if len(s) < 2 {
		return s
	}
	sort.Ints(s)
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// postDominators computes the immediate post-dominator of every block with
// the Cooper-Harvey-Kennedy iterative algorithm on the reversed graph, rooted
// at a virtual exit node. Blocks that cannot reach an exit (infinite loops)
// are given a virtual edge to the exit so that every block has an answer.
func postDominators(blocks []Block) []int {
	n := len(blocks)
	exit := n
	// reverse-graph successors: for exit, the blocks with Exit; else Preds.
	exitPreds := make([]int, 0, 4)
	for b := range blocks {
		if blocks[b].Exit {
			exitPreds = append(exitPreds, b)
		}
	}
	// Blocks that cannot reach the exit get a virtual exit edge: the last
	// such block (typically a loop's latch) first, then the reach is
	// extended from it, so that one edge serves a whole loop.
	virt := make([]bool, n)
	reach := reachesExit(blocks, exitPreds)
	for b := n - 1; b >= 0; b-- {
		if reach[b] {
			continue
		}
		virt[b] = true
		exitPreds = append(exitPreds, b)
		reach[b] = true
		work := []int{b}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range blocks[x].Preds {
				if !reach[p] {
					reach[p] = true
					work = append(work, p)
				}
			}
		}
	}
	rsucc := func(v int) []int {
		if v == exit {
			return exitPreds
		}
		return blocks[v].Preds
	}
	// rpred(v): forward successors, plus exit when v exits.
	// Post-order of the reverse graph from exit, iteratively.
	order := make([]int, 0, n+1)
	num := make([]int, n+1)
	for i := range num {
		num[i] = -1
	}
	type frame struct{ v, i int }
	visited := make([]bool, n+1)
	stack := []frame{{exit, 0}}
	visited[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		ss := rsucc(top.v)
		if top.i < len(ss) {
			w := ss[top.i]
			top.i++
			if !visited[w] {
				visited[w] = true
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		num[top.v] = len(order)
		order = append(order, top.v)
		stack = stack[:len(stack)-1]
	}
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = -2 // undefined
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = idom[a]
			}
			for num[b] < num[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 2; k >= 0; k-- { // reverse post-order, skipping exit
			v := order[k]
			newIdom := -2
			preds := blocks[v].Succs
			if blocks[v].Exit || virt[v] {
				newIdom = exit
			}
			for _, p := range preds {
				if idom[p] == -2 {
					continue
				}
				if newIdom == -2 {
					newIdom = p
				} else {
					newIdom = intersect(p, newIdom)
				}
			}
			if newIdom != -2 && idom[v] != newIdom {
				idom[v] = newIdom
				changed = true
			}
		}
	}
	out := make([]int, n)
	for b := range out {
		if idom[b] == exit || idom[b] < 0 {
			out[b] = -1
		} else {
			out[b] = idom[b]
		}
	}
	return out
}

// reachesExit marks the blocks from which an exit (or virtual exit) is reachable.
func reachesExit(blocks []Block, exitPreds []int) []bool {
	reach := make([]bool, len(blocks))
	work := append([]int(nil), exitPreds...)
	for _, b := range work {
		reach[b] = true
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range blocks[b].Preds {
			if !reach[p] {
				reach[p] = true
				work = append(work, p)
			}
		}
	}
	return reach
}

// Reconv returns the index into f.Insts where lanes that diverge at the
// branch instruction i reconverge: the first instruction of the immediate
// post-dominator of i's block, or -1 when they only meet at exit.
func (g *CFG) Reconv(i int) int {
	if g == nil || i < 0 || i >= len(g.BlockOf) {
		return -1
	}
	b := g.BlockOf[i]
	if b < 0 || b >= len(g.IPDom) {
		return -1
	}
	p := g.IPDom[b]
	if p < 0 {
		return -1
	}
	return g.Blocks[p].Start
}
