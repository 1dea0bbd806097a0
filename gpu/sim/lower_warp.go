package sim

// Lowering of warp-level instructions: shfl, vote, match, redux and elect.

import (
	"errors"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// shfl lowers shfl.sync.mode.b32 d[|p], a, b, c, membermask (and the deprecated form without .sync).
func (fd *fnDecoder) shfl(in *ptx.Inst) (op, error) {
	o := op{kind: kShfl}
	ok := true
	switch fd.cur.Mods.Shfl {
	case isa.ShflUp:
		o.sub = shflUp
	case isa.ShflDown:
		o.sub = shflDown
	case isa.ShflBfly:
		o.sub = shflBfly
	case isa.ShflIdx:
		o.sub = shflIdx
	default:
		ok = false
	}
	if !ok {
		return op{}, errors.New("shfl needs a mode")
	}
	n := len(in.Args)
	if n != 4 && n != 5 {
		return op{}, errors.New("shfl takes d, a, b, c and a member mask")
	}
	if err := fd.dstPair(in.Args[0], &o); err != nil {
		return op{}, err
	}
	for i := 1; i < n; i++ {
		v, err := fd.value(in.Args[i], ptx.B32)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	if n == 4 {
		o.src[3] = val{reg: -1, imm: 0xffffffff}
	}
	o.ns = 4
	return o, nil
}

// dstPair resolves d or d|p into dst[0], dst[1].
func (fd *fnDecoder) dstPair(a ptx.Operand, o *op) error {
	if a.Kind == ptx.OpPair {
		if len(a.Elems) != 2 {
			return errors.New("bad p|q destination")
		}
		for k := 0; k < 2; k++ {
			r, m, err := fd.dstReg(a.Elems[k])
			if err != nil {
				return err
			}
			o.dst[k], o.dmask[k] = r, m
		}
		o.nd = 2
		return nil
	}
	r, m, err := fd.dstReg(a)
	if err != nil {
		return err
	}
	o.dst[0], o.dmask[0], o.dst[1], o.nd = r, m, -1, 1
	return nil
}

// vote lowers vote{.sync}.mode.
func (fd *fnDecoder) vote(in *ptx.Inst) (op, error) {
	o := op{kind: kVote}
	ok := true
	switch fd.cur.Mods.Vote {
	case isa.VoteAll:
		o.sub = voteAll
	case isa.VoteAny:
		o.sub = voteAny
	case isa.VoteUni:
		o.sub = voteUni
	case isa.VoteBallot:
		o.sub = voteBallot
	default:
		ok = false
	}
	if !ok {
		return op{}, errors.New("vote needs a mode")
	}
	if len(in.Args) != 2 && len(in.Args) != 3 {
		return op{}, errors.New("vote takes d, a and a member mask")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o.nd, o.dst[0], o.dmask[0] = 1, r, m
	a, err := fd.value(in.Args[1], ptx.Pred)
	if err != nil {
		return op{}, err
	}
	o.src[0] = a
	o.src[1] = val{reg: -1, imm: 0xffffffff}
	if len(in.Args) == 3 {
		if o.src[1], err = fd.value(in.Args[2], ptx.B32); err != nil {
			return op{}, err
		}
	}
	o.ns = 2
	return o, nil
}

// match lowers match.any/all.sync.b32/b64.
func (fd *fnDecoder) match(in *ptx.Inst) (op, error) {
	o := op{kind: kMatch, size: 4}
	m := &fd.cur.Mods
	ok := true
	switch {
	case m.Vote == isa.VoteAny:
		o.sub = matchAny
	case m.Vote == isa.VoteAll:
		o.sub = matchAll
	default:
		ok = false
	}
	for _, t := range m.Types {
		if t == ptx.B64 {
			o.size = 8
		}
	}
	if !ok || len(in.Args) != 3 {
		return op{}, errors.New("match takes .any or .all, d, a and a member mask")
	}
	if err := fd.dstPair(in.Args[0], &o); err != nil {
		return op{}, err
	}
	for i := 1; i < 3; i++ {
		v, err := fd.value(in.Args[i], ptx.B64)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	o.ns = 2
	return o, nil
}

// redux lowers redux.sync.op.type d, a, membermask.
func (fd *fnDecoder) redux(in *ptx.Inst) (op, error) {
	o := op{kind: kRedux}
	md := &fd.cur.Mods
	for _, t := range md.Types {
		switch t {
		case ptx.S32:
			o.signed = true
		case ptx.F32:
			return op{}, errors.New("floating-point redux is not supported")
		}
	}
	if md.Flags&(isa.FlagAbs|isa.FlagNaN) != 0 {
		return op{}, errors.New("floating-point redux is not supported")
	}
	ok := true
	switch md.Atom {
	case isa.AtomAdd:
		o.sub = reduxAdd
	case isa.AtomMin:
		o.sub = reduxMin
	case isa.AtomMax:
		o.sub = reduxMax
	case isa.AtomAnd:
		o.sub = reduxAnd
	case isa.AtomOr:
		o.sub = reduxOr
	case isa.AtomXor:
		o.sub = reduxXor
	default:
		ok = false
	}
	if !ok || len(in.Args) != 3 {
		return op{}, errors.New("redux takes an operation, d, a and a member mask")
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o.nd, o.dst[0], o.dmask[0] = 1, r, m
	for i := 1; i < 3; i++ {
		v, err := fd.value(in.Args[i], ptx.B32)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	o.ns = 2
	return o, nil
}

// elect lowers elect.sync d|p, membermask.
func (fd *fnDecoder) elect(in *ptx.Inst) (op, error) {
	if len(in.Args) != 2 {
		return op{}, errors.New("elect takes d|p and a member mask")
	}
	o := op{kind: kElect}
	if err := fd.dstPair(in.Args[0], &o); err != nil {
		return op{}, err
	}
	v, err := fd.value(in.Args[1], ptx.B32)
	if err != nil {
		return op{}, err
	}
	o.src[0], o.ns = v, 1
	return o, nil
}
