package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
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

// TestGuardListenerSilentPeersHoldUpNobody connects ten peers that send nothing, then
// one that handshakes: Accept hands over the eleventh first, while the silent ones (with
// an hour's handshake deadline) are still pending. zmq4 handshakes what Accept returns
// one at a time, so before the fix the first silent peer blocked everyone behind it.
func TestGuardListenerSilentPeersHoldUpNobody(t *testing.T) {
	g := guardTransport{network: "tcp", peers: []string{"DEALER"}, log: slog.New(slog.DiscardHandler),
		lim: Limits{MaxFrame: 1000, MaxMessage: 1500, MaxFrames: 3, MaxCommand: 100, Handshake: time.Hour}}
	l, err := g.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := l.Addr().String()
	var silent []net.Conn
	for range 10 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
	}
	client, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	hello := cat(zmtpGreeting(), zmtpReady(property("Socket-Type", "DEALER")), zmtpFrame(0, []byte("first message")))
	if _, err := client.Write(hello); err != nil {
		t.Fatal(err)
	}
	// The guard greets the client at once, before zmq4 is involved.
	got := make([]byte, zmtpGreetingLen)
	client.SetReadDeadline(time.Now().Add(guardWait))
	if _, err := io.ReadFull(client, got); err != nil || !bytes.Equal(got, zmtpNullGreeting()) {
		t.Fatalf("greeting % x, %v", got, err)
	}
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			t.Error(err)
		}
		accepted <- c
	}()
	var c net.Conn
	select {
	case c = <-accepted:
	case <-time.After(guardWait): // only a guard against a hang: the old code would hand over a silent peer
		t.Fatal("Accept did not return the peer that handshook")
	}
	if c.RemoteAddr().String() != client.LocalAddr().String() {
		t.Fatalf("Accept returned %s, want the handshaking peer %s (a silent one was handed to zmq4)", c.RemoteAddr(), client.LocalAddr())
	}
	// zmq4 sees the peer's bytes as sent and its own greeting is not sent twice.
	if n, err := c.Write(zmtpNullGreeting()); err != nil || n != zmtpGreetingLen {
		t.Fatalf("writing zmq4's greeting: %d, %v", n, err)
	}
	if _, err := c.Write([]byte("after")); err != nil {
		t.Fatal(err)
	}
	replay := make([]byte, len(hello))
	if _, err := io.ReadFull(c, replay); err != nil || !bytes.Equal(replay, hello) {
		t.Fatalf("replayed % x, %v", replay, err)
	}
	after := make([]byte, 5)
	if _, err := io.ReadFull(client, after); err != nil || string(after) != "after" {
		t.Fatalf("client read %q, %v (zmq4's greeting not swallowed?)", after, err)
	}
	// A greeting other than the one sent is refused rather than sent after it.
	c2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	c2.Write(cat(zmtpGreeting(), zmtpReady(property("Socket-Type", "DEALER"))))
	h2, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	other := zmtpNullGreeting()
	other[11] = 1
	if _, err := h2.Write(other); !errors.Is(err, errZMTP) {
		t.Errorf("a different greeting from zmq4: err %v", err)
	}
	// Closing the listener closes the silent peers still pending.
	l.Close()
	for i, s := range silent {
		s.SetReadDeadline(time.Now().Add(guardWait))
		if _, err := s.Read(make([]byte, 128)); err == nil {
			// the greeting may come first; the close follows
			_, err = s.Read(make([]byte, 128))
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Errorf("silent peer %d not closed with the listener", i)
			}
		}
	}
}

// TestGuardListenerHandshakeDeadline closes a silent peer after the deadline and bounds
// the pending handshakes.
func TestGuardListenerHandshakeDeadline(t *testing.T) {
	g := guardTransport{network: "tcp", log: slog.New(slog.DiscardHandler),
		lim: Limits{MaxFrame: 1000, MaxMessage: 1500, MaxFrames: 3, MaxCommand: 100, Handshake: 50 * time.Millisecond, PendingHandshakes: 2}}
	l, err := g.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(guardWait))
	b, err := io.ReadAll(c) // the greeting, then EOF when the guard gives up on us
	if err != nil || !bytes.Equal(b, zmtpNullGreeting()) {
		t.Errorf("silent peer read % x, %v; want the greeting then EOF", b, err)
	}
}

// guardWait bounds waits that only guard against a hang.
const guardWait = 10 * time.Second

// TestGuardListenerBoundsPendingHandshakes closes connections beyond the limit of
// handshakes in progress at once, and keeps the others.
func TestGuardListenerBoundsPendingHandshakes(t *testing.T) {
	g := guardTransport{network: "tcp", log: slog.New(slog.DiscardHandler),
		lim: Limits{MaxFrame: 1000, MaxMessage: 1500, MaxFrames: 3, MaxCommand: 100, Handshake: time.Hour, PendingHandshakes: 2}}
	l, err := g.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var conns []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
		// Wait for the guard to take this one before dialling the next, so the order is known.
		c.SetReadDeadline(time.Now().Add(guardWait))
		b := make([]byte, zmtpGreetingLen)
		n, err := io.ReadFull(c, b)
		if len(conns) <= 2 && (err != nil || !bytes.Equal(b, zmtpNullGreeting())) {
			t.Fatalf("connection %d: % x, %v", len(conns), b[:n], err)
		}
		if len(conns) == 3 && (n != 0 || err == nil) {
			t.Fatalf("connection 3 over the limit: read %d bytes, %v; want it closed", n, err)
		}
	}
}
