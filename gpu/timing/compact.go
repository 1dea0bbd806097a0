package timing

// The compact encoding of a warp stream, which the model keeps for its
// resident blocks instead of the 16-byte Events it was given (issue 16: memory
// bounded per resident block; the stream is read once, in order).
//
// Each event starts with a header byte unless it is part of the run of the
// header before it. Header bits:
//
//	fPC   the PC is not the previous one + 1: a zigzag varint of PC - (previous + 1) follows
//	fMem  Mem, Sectors and Lines follow (one byte each), and with fDRAM DRAMSectors (one byte)
//	fDRAM alone: Mem, Sectors, Lines and DRAMSectors are those of the warp's last event
//	      that had any (a loop's shared loads: one byte each)
//	fAcc  Acc follows as a zigzag varint of Acc - the warp's previous non-zero Acc
//	bits 4-7: how many plain events follow the header's event (PC = previous + 1,
//	      no memory fields, Acc 0), 0-15, with no bytes of their own
//
// Event.Active is not kept: the model does not read it. The first event's
// "previous" PC is -1, its previous Acc 0 and its last memory fields none.
const (
	fPC   = 1 << 0
	fMem  = 1 << 1
	fDRAM = 1 << 2
	fAcc  = 1 << 3

	runShift = 4
	runMax   = 15
)

// memFields are an event's memory fields (Mem, Sectors, Lines, DRAMSectors).
type memFields struct {
	mem                  MemClass
	sectors, lines, dram uint8
}

// appendCompact appends the compact encoding of s to dst.
func appendCompact(dst []byte, s WarpStream) []byte {
	prevPC, prevAcc := int32(-1), int32(0)
	var last memFields
	hdr := -1 // index of the last header byte, while its run can grow
	for i := range s {
		e := &s[i]
		if e.PC == prevPC+1 && e.Mem == 0 && e.Sectors == 0 && e.Lines == 0 && e.DRAMSectors == 0 && e.Acc == 0 {
			if hdr >= 0 && dst[hdr]>>runShift < runMax {
				dst[hdr] += 1 << runShift
				prevPC = e.PC
				continue
			}
		}
		var h byte
		if e.PC != prevPC+1 {
			h |= fPC
		}
		mf := memFields{e.Mem, e.Sectors, e.Lines, e.DRAMSectors}
		switch {
		case mf == memFields{}:
		case mf == last:
			h |= fDRAM
		default:
			h |= fMem
			if e.DRAMSectors != 0 {
				h |= fDRAM
			}
			last = mf
		}
		if e.Acc != 0 {
			h |= fAcc
		}
		hdr = len(dst)
		dst = append(dst, h)
		if h&fPC != 0 {
			dst = appendZigzag(dst, int64(e.PC)-int64(prevPC+1))
		}
		if h&fMem != 0 {
			dst = append(dst, byte(e.Mem), e.Sectors, e.Lines)
			if h&fDRAM != 0 {
				dst = append(dst, e.DRAMSectors)
			}
		}
		if h&fAcc != 0 {
			dst = appendZigzag(dst, int64(e.Acc)-int64(prevAcc))
			prevAcc = e.Acc
		}
		prevPC = e.PC
	}
	return dst
}

// appendZigzag appends v as a zigzag-coded unsigned varint.
func appendZigzag(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// zigzag reads a zigzag-coded varint at b[i:] and returns it and the index after it.
func zigzag(b []byte, i int) (int64, int) {
	var u uint64
	for s := uint(0); ; s += 7 {
		c := b[i]
		i++
		u |= uint64(c&0x7f) << s
		if c < 0x80 {
			break
		}
	}
	return int64(u>>1) ^ -int64(u&1), i
}

// decodeNext makes w.cur the event after it in the warp's compact stream
// (the caller checked there is one).
func (w *warp) decodeNext() {
	pc := w.cur.PC + 1
	if w.run > 0 {
		w.run--
		w.cur = Event{PC: pc}
		return
	}
	b, i := w.enc, int(w.bp)
	h := b[i]
	i++
	var e Event
	if h&fPC != 0 {
		var d int64
		d, i = zigzag(b, i)
		pc += int32(d)
	}
	e.PC = pc
	switch h & (fMem | fDRAM) {
	case fMem:
		w.lastMem = memFields{MemClass(b[i]), b[i+1], b[i+2], 0}
		i += 3
	case fMem | fDRAM:
		w.lastMem = memFields{MemClass(b[i]), b[i+1], b[i+2], b[i+3]}
		i += 4
	}
	if h&(fMem|fDRAM) != 0 {
		e.Mem, e.Sectors, e.Lines, e.DRAMSectors = w.lastMem.mem, w.lastMem.sectors, w.lastMem.lines, w.lastMem.dram
	}
	if h&fAcc != 0 {
		var d int64
		d, i = zigzag(b, i)
		w.lastAcc += int32(d)
		e.Acc = w.lastAcc
	}
	w.run = h >> runShift
	w.bp = int32(i)
	w.cur = e
}

// load gives a trace-driven warp its stream: encoded into the warp's own
// buffer (reused from the warp's last block), positioned at the first event.
func (w *warp) load(s WarpStream) {
	w.enc = appendCompact(w.enc[:0], s)
	w.n, w.pos, w.bp, w.run, w.lastAcc, w.lastMem = len(s), 0, 0, 0, 0, memFields{}
	w.cur = Event{PC: -1}
	if w.n > 0 {
		w.decodeNext()
	}
}

// step moves the warp to the next event of its stream (w.pos < w.n). A
// driven warp's window holds one event, so it never decodes.
func (w *warp) step() {
	w.pos++
	if w.pos < w.n {
		w.decodeNext()
	}
}
