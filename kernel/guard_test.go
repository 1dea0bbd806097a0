package kernel

import (
	"encoding/binary"
	"errors"
	"testing"
	"time"
)

// zmtpGreeting returns a ZMTP 3.0 NULL greeting.
func zmtpGreeting() []byte {
	g := make([]byte, zmtpGreetingLen)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:], "NULL")
	return g
}

// zmtpFrame encodes one frame with flags.
func zmtpFrame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		h := make([]byte, 9)
		h[0] = flags | flagLong
		binary.BigEndian.PutUint64(h[1:], uint64(len(body)))
		return append(h, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// zmtpReady encodes a READY command with the given raw metadata.
func zmtpReady(meta []byte) []byte {
	return zmtpFrame(flagCommand, append([]byte("\x05READY"), meta...))
}

// property encodes one READY metadata property.
func property(k, v string) []byte {
	b := append([]byte{byte(len(k))}, k...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

func testLimits() Limits {
	return Limits{MaxFrame: 1000, MaxMessage: 1500, MaxFrames: 3, MaxCommand: 100, Handshake: time.Second}
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func TestZMTPCheckerAcceptsValidStreams(t *testing.T) {
	stream := cat(zmtpGreeting(), zmtpReady(cat(property("socket-type", "DEALER"), property("Identity", ""))),
		zmtpFrame(flagMore, []byte("id")), zmtpFrame(flagMore, make([]byte, 900)), zmtpFrame(0, nil),
		zmtpFrame(flagCommand, []byte("\x04PING\x00\x10")),
		zmtpFrame(flagMore, make([]byte, 700)), zmtpFrame(0, make([]byte, 700)))
	// Whole, and byte by byte: the checker keeps state across reads.
	z := zmtpChecker{lim: testLimits(), peers: []string{"DEALER"}}
	if err := z.feed(stream); err != nil {
		t.Fatalf("valid stream rejected: %v", err)
	}
	z = zmtpChecker{lim: testLimits(), peers: []string{"DEALER"}}
	for i := range stream {
		if err := z.feed(stream[i : i+1]); err != nil {
			t.Fatalf("byte %d: %v", i, err)
		}
	}
	if !z.ready {
		t.Error("READY not seen")
	}
}

func TestZMTPCheckerRejects(t *testing.T) {
	ready := zmtpReady(property("Socket-Type", "DEALER"))
	huge := make([]byte, 9)
	huge[0] = flagLong
	binary.BigEndian.PutUint64(huge[1:], 1<<46)
	badSig := zmtpGreeting()
	badSig[0] = 0x00
	v2 := zmtpGreeting()
	v2[10] = 2
	plain := zmtpGreeting()
	copy(plain[12:], "PLAIN")
	asServer := zmtpGreeting()
	asServer[32] = 2
	cases := map[string][]byte{
		"bad signature":            badSig,
		"PLAIN mechanism":          plain,
		"as-server flag 2":         asServer,
		"wrong socket type":        cat(zmtpGreeting(), zmtpReady(property("Socket-Type", "PUB"))),
		"no socket type":           cat(zmtpGreeting(), zmtpReady(property("Identity", "x"))),
		"ZMTP 2":                   v2,
		"reserved flag bits":       cat(zmtpGreeting(), []byte{0x40, 0}),
		"message before READY":     cat(zmtpGreeting(), zmtpFrame(0, []byte("x"))),
		"first command not READY":  cat(zmtpGreeting(), zmtpFrame(flagCommand, []byte("\x04PING"))),
		"command name overruns":    cat(zmtpGreeting(), zmtpFrame(flagCommand, []byte("\x09READY"))),
		"empty command":            cat(zmtpGreeting(), zmtpFrame(flagCommand, nil)),
		"property name overruns":   cat(zmtpGreeting(), zmtpReady([]byte{2, 'a'})),
		"property no value length": cat(zmtpGreeting(), zmtpReady([]byte{1, 'a', 0, 0})),
		"property value overruns":  cat(zmtpGreeting(), zmtpReady([]byte{1, 'a', 0, 0, 0, 9, 'x'})),
		"property empty name":      cat(zmtpGreeting(), zmtpReady([]byte{0, 0, 0, 0, 0})),
		"command with MORE":        cat(zmtpGreeting(), zmtpFrame(flagCommand|flagMore, []byte("\x05READY"))),
		"command too long":         cat(zmtpGreeting(), zmtpFrame(flagCommand, make([]byte, 101))),
		"huge frame header":        cat(zmtpGreeting(), ready, huge),
		"frame over limit":         cat(zmtpGreeting(), ready, zmtpFrame(0, make([]byte, 1001))),
		"message over limit":       cat(zmtpGreeting(), ready, zmtpFrame(flagMore, make([]byte, 800)), zmtpFrame(0, make([]byte, 800))),
		"too many frames":          cat(zmtpGreeting(), ready, zmtpFrame(flagMore, nil), zmtpFrame(flagMore, nil), zmtpFrame(flagMore, nil), zmtpFrame(0, nil)),
	}
	for name, stream := range cases {
		z := zmtpChecker{lim: testLimits(), peers: []string{"DEALER", "REQ"}}
		if err := z.feed(stream); !errors.Is(err, errZMTP) {
			t.Errorf("%s: err = %v, want a ZMTP violation", name, err)
		}
	}
}

func FuzzZMTPChecker(f *testing.F) {
	f.Add(cat(zmtpGreeting(), zmtpReady(property("Socket-Type", "DEALER")), zmtpFrame(0, []byte("x"))))
	f.Add(cat(zmtpGreeting(), zmtpReady([]byte{2, 'a'})))
	f.Fuzz(func(t *testing.T, stream []byte) {
		z := zmtpChecker{lim: testLimits()}
		whole := z.feed(stream)
		z2 := zmtpChecker{lim: testLimits()}
		var split error
		for i := 0; i < len(stream) && split == nil; i += 7 {
			split = z2.feed(stream[i:min(i+7, len(stream))])
		}
		if (whole == nil) != (split == nil) {
			t.Fatalf("chunking changed the verdict: %v vs %v", whole, split)
		}
	})
}
