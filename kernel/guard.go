package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// zmq4 trusts the ZMTP framing of its peers: a frame header claiming 2^46 bytes makes
// it allocate that much before authentication (a fatal out-of-memory, not a panic),
// and a truncated READY command makes its metadata parser index out of range; its
// accept loop also waits without limit for a peer's handshake, one connection at a
// time. The guard below checks every byte a peer sends, before zmq4 reads it, cuts the
// connection on a violation, and does the waiting for handshakes concurrently.

// Limits bounds what a ZeroMQ peer may send.
type Limits struct {
	// MaxFrame is the largest message frame, in bytes.
	MaxFrame uint64
	// MaxMessage is the largest multipart message, in bytes.
	MaxMessage uint64
	// MaxFrames is the most frames in one multipart message.
	MaxFrames int
	// MaxCommand is the largest ZMTP command frame, in bytes.
	MaxCommand uint64
	// Handshake is how long a peer may take to send its greeting and READY command.
	Handshake time.Duration
	// PendingHandshakes is the most connections per socket whose handshake is still
	// arriving (0: 64); more are closed at once.
	PendingHandshakes int
}

// DefaultLimits returns the limits Run uses.
func DefaultLimits() Limits {
	return Limits{MaxFrame: 64 << 20, MaxMessage: 256 << 20, MaxFrames: 4096, MaxCommand: 64 << 10, Handshake: 5 * time.Second}
}

// zmtpGreetingLen is the size of the ZMTP 3 greeting.
const zmtpGreetingLen = 64

// ZMTP frame flags.
const (
	flagMore     = 0x01
	flagLong     = 0x02
	flagCommand  = 0x04
	flagReserved = 0xf8
)

// errZMTP marks a ZMTP violation by a peer.
const errZMTP = WireError("ZMTP violation")

// zmtpChecker follows the byte stream a peer sends and rejects what zmq4 cannot take safely.
type zmtpChecker struct {
	lim       Limits
	peers     []string // socket types allowed to connect; nil allows any
	greet     [zmtpGreetingLen]byte
	greeting  int // greeting bytes seen
	hdr       [9]byte
	hdrLen    int
	bodyLeft  uint64
	flag      byte
	cmd       []byte // body of the command frame being read
	msgBytes  uint64
	msgFrames int
	ready     bool // the peer's READY command has been seen
}

// feed checks the next bytes of the stream.
func (z *zmtpChecker) feed(b []byte) error {
	for len(b) > 0 {
		switch {
		case z.greeting < zmtpGreetingLen:
			n := copy(z.greet[z.greeting:], b)
			z.greeting += n
			b = b[n:]
			if err := z.checkGreeting(); err != nil {
				return err
			}
		case z.bodyLeft == 0 && (z.hdrLen == 0 || z.hdrLen < z.hdrNeed()):
			z.hdr[z.hdrLen] = b[0]
			z.hdrLen++
			b = b[1:]
			if z.hdrLen == 1 && z.hdr[0]&flagReserved != 0 {
				return fmt.Errorf("frame flags %#x: %w", z.hdr[0], errZMTP)
			}
			if z.hdrLen == z.hdrNeed() {
				if err := z.startFrame(); err != nil {
					return err
				}
			}
		default:
			n := min(uint64(len(b)), z.bodyLeft)
			if z.flag&flagCommand != 0 {
				z.cmd = append(z.cmd, b[:n]...)
			}
			z.bodyLeft -= n
			b = b[n:]
			if z.bodyLeft == 0 {
				if err := z.endFrame(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkGreeting checks the greeting bytes seen so far, as zmq4 will: signature,
// version 3 or later, the NULL mechanism and an as-server flag of 0 or 1.
func (z *zmtpChecker) checkGreeting() error {
	g, n := z.greet[:], z.greeting
	switch {
	case n > 0 && g[0] != 0xff:
		return fmt.Errorf("greeting signature byte 0 is %#x: %w", g[0], errZMTP)
	case n > 9 && g[9] != 0x7f:
		return fmt.Errorf("greeting signature byte 9 is %#x: %w", g[9], errZMTP)
	case n > 10 && g[10] < 3:
		return fmt.Errorf("ZMTP major version %d, want 3: %w", g[10], errZMTP)
	case n > 31:
		mech := g[12:32]
		if i := bytes.IndexByte(mech, 0); i >= 0 {
			mech = mech[:i]
		}
		if string(mech) != "NULL" {
			return fmt.Errorf("security mechanism %q, want NULL: %w", mech, errZMTP)
		}
		if n > 32 && g[32] > 1 {
			return fmt.Errorf("as-server flag %d: %w", g[32], errZMTP)
		}
	}
	return nil
}

// hdrNeed is the length of the current frame header: flag plus 1 or 8 size bytes.
func (z *zmtpChecker) hdrNeed() int {
	if z.hdr[0]&flagLong != 0 {
		return 9
	}
	return 2
}

// startFrame checks a complete frame header against the limits.
func (z *zmtpChecker) startFrame() error {
	z.flag = z.hdr[0]
	var size uint64
	if z.flag&flagLong != 0 {
		size = binary.BigEndian.Uint64(z.hdr[1:9])
	} else {
		size = uint64(z.hdr[1])
	}
	z.hdrLen = 0
	if z.flag&flagCommand != 0 {
		if z.flag&flagMore != 0 {
			return fmt.Errorf("command frame with MORE: %w", errZMTP)
		}
		if size > z.lim.MaxCommand {
			return fmt.Errorf("command of %d bytes, limit %d: %w", size, z.lim.MaxCommand, errZMTP)
		}
		z.cmd = z.cmd[:0]
	} else {
		if !z.ready {
			return fmt.Errorf("message frame before READY: %w", errZMTP)
		}
		if size > z.lim.MaxFrame {
			return fmt.Errorf("frame of %d bytes, limit %d: %w", size, z.lim.MaxFrame, errZMTP)
		}
		z.msgBytes += size
		z.msgFrames++
		if z.msgBytes > z.lim.MaxMessage || z.msgFrames > z.lim.MaxFrames {
			return fmt.Errorf("message over %d bytes or %d frames: %w", z.lim.MaxMessage, z.lim.MaxFrames, errZMTP)
		}
	}
	z.bodyLeft = size
	if size == 0 {
		return z.endFrame()
	}
	return nil
}

// endFrame checks a complete frame.
func (z *zmtpChecker) endFrame() error {
	if z.flag&flagCommand == 0 {
		if z.flag&flagMore == 0 {
			z.msgBytes, z.msgFrames = 0, 0
		}
		return nil
	}
	c := z.cmd
	if len(c) == 0 || int(c[0]) > len(c)-1 {
		return fmt.Errorf("command name overruns its frame: %w", errZMTP)
	}
	name, body := c[1:1+int(c[0])], c[1+int(c[0]):]
	if !z.ready {
		if !bytes.Equal(name, []byte("READY")) {
			return fmt.Errorf("first command %q, want READY: %w", name, errZMTP)
		}
		sockType, err := checkMetadata(body)
		if err != nil {
			return err
		}
		if z.peers != nil && !slices.Contains(z.peers, sockType) {
			return fmt.Errorf("peer socket type %q, want one of %v: %w", sockType, z.peers, errZMTP)
		}
		z.ready = true
	}
	return nil
}

// checkMetadata checks READY's properties (a 1-byte name length, the name, a 4-byte
// value length and the value, repeated to the end) and returns the Socket-Type.
func checkMetadata(b []byte) (sockType string, err error) {
	for len(b) > 0 {
		k := int(b[0])
		if k == 0 || 1+k+4 > len(b) {
			return "", fmt.Errorf("READY property name overruns: %w", errZMTP)
		}
		v := binary.BigEndian.Uint32(b[1+k : 1+k+4])
		rest := uint64(len(b) - (1 + k + 4))
		if uint64(v) > rest {
			return "", fmt.Errorf("READY property value overruns: %w", errZMTP)
		}
		if strings.EqualFold(string(b[1:1+k]), "Socket-Type") {
			sockType = string(b[1+k+4 : 1+k+4+int(v)])
		}
		b = b[1+k+4+int(v):]
	}
	return sockType, nil
}

// guardConn checks what the peer sends before zmq4 reads it.
type guardConn struct {
	net.Conn
	log *slog.Logger

	mu sync.Mutex
	z  zmtpChecker
}

// Read reads from the peer, returning an error instead of bytes that break the limits.
func (c *guardConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		wasReady := c.z.ready
		cerr := c.z.feed(p[:n])
		ready := c.z.ready
		c.mu.Unlock()
		if cerr != nil {
			c.log.Warn("closing ZeroMQ connection", "peer", c.RemoteAddr().String(), "err", cerr)
			c.Conn.Close()
			return 0, fmt.Errorf("peer %s: %w", c.RemoteAddr(), cerr)
		}
		if !wasReady && ready {
			if derr := c.Conn.SetReadDeadline(time.Time{}); derr != nil {
				return n, fmt.Errorf("clear handshake deadline: %w", derr)
			}
		}
	}
	return n, err
}

// zmq4 accepts and handshakes one connection at a time (its accept loop calls Open,
// which waits for the peer's greeting), so a peer that connects and sends nothing used
// to hold up every later client for the whole handshake deadline, one after another.
// The guard listener therefore accepts in its own goroutine and runs the handshake's
// reading half for each connection concurrently: it sends the ZMTP greeting zmq4 would
// send, reads the peer's greeting and READY command (both of which a ZMTP peer sends
// without waiting for ours), and hands zmq4 only connections whose handshake has fully
// arrived. zmq4 then reads those bytes from a buffer and never waits on the network
// during its handshake; its own greeting, identical to the one already sent, is
// swallowed. A peer that stays silent past the deadline is closed without zmq4 ever
// seeing it. (Upstream, the equivalent fix is for zmq4's accept loop to run Open in a
// goroutine per connection.)

// zmtpNullGreeting is the greeting zmq4 sends as a listener with the NULL mechanism:
// signature, version 3.0, "NULL", as-server 0.
func zmtpNullGreeting() []byte {
	g := make([]byte, zmtpGreetingLen)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:32], "NULL")
	return g
}

// defaultPendingHandshakes bounds the connections whose handshake is still arriving.
const defaultPendingHandshakes = 64

// guardListener accepts connections concurrently and hands zmq4 only those whose
// handshake has arrived, guarded.
type guardListener struct {
	net.Listener
	lim   Limits
	peers []string
	log   *slog.Logger

	ready chan net.Conn // connections whose handshake has arrived
	done  chan struct{} // closed by Close
	slots chan struct{} // one token per pending handshake

	mu      sync.Mutex
	pending map[net.Conn]struct{}
	closed  bool
	once    sync.Once
}

// newGuardListener starts accepting on l.
func newGuardListener(l net.Listener, lim Limits, peers []string, log *slog.Logger) *guardListener {
	n := lim.PendingHandshakes
	if n <= 0 {
		n = defaultPendingHandshakes
	}
	gl := &guardListener{Listener: l, lim: lim, peers: peers, log: log,
		ready: make(chan net.Conn), done: make(chan struct{}), slots: make(chan struct{}, n),
		pending: map[net.Conn]struct{}{}}
	go gl.acceptLoop()
	return gl
}

// acceptLoop accepts until the listener closes, starting one handshake per connection.
func (l *guardListener) acceptLoop() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			l.log.Warn("accept failed", "err", err)
			time.Sleep(10 * time.Millisecond) // e.g. out of file descriptors: do not spin
			continue
		}
		select {
		case l.slots <- struct{}{}:
		default:
			l.log.Warn("closing ZeroMQ connection: too many handshakes in progress", "peer", c.RemoteAddr().String(), "limit", cap(l.slots))
			c.Close()
			continue
		}
		if !l.track(c) {
			c.Close()
			<-l.slots
			return
		}
		go l.handshake(c)
	}
}

// track records c as pending; false once the listener is closed.
func (l *guardListener) track(c net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.pending[c] = struct{}{}
	return true
}

// untrack forgets c.
func (l *guardListener) untrack(c net.Conn) {
	l.mu.Lock()
	delete(l.pending, c)
	l.mu.Unlock()
}

// handshake sends the greeting, reads the peer's greeting and READY within the
// deadline and passes the connection on to Accept; on failure it closes it.
func (l *guardListener) handshake(c net.Conn) {
	defer func() { <-l.slots }()
	defer l.untrack(c)
	hc, err := l.prepare(c)
	if err != nil {
		l.log.Debug("ZeroMQ handshake did not complete", "peer", c.RemoteAddr().String(), "err", err)
		c.Close()
		return
	}
	select {
	case l.ready <- hc:
	case <-l.done:
		c.Close()
	}
}

// prepare does the handshake's network half on c and returns the conn for zmq4.
func (l *guardListener) prepare(c net.Conn) (*handedConn, error) {
	if err := c.SetDeadline(time.Now().Add(l.lim.Handshake)); err != nil {
		return nil, fmt.Errorf("set handshake deadline: %w", err)
	}
	greeting := zmtpNullGreeting()
	if _, err := c.Write(greeting); err != nil {
		return nil, fmt.Errorf("send greeting: %w", err)
	}
	gc := &guardConn{Conn: c, log: l.log, z: zmtpChecker{lim: l.lim, peers: l.peers}}
	var got []byte
	buf := make([]byte, 512)
	for {
		n, err := gc.Read(buf)
		got = append(got, buf[:n]...)
		gc.mu.Lock()
		ready := gc.z.ready
		gc.mu.Unlock()
		if ready {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read handshake (%d bytes arrived): %w", len(got), err)
		}
	}
	if err := c.SetDeadline(time.Time{}); err != nil {
		return nil, fmt.Errorf("clear handshake deadline: %w", err)
	}
	return &handedConn{guardConn: gc, replay: got, swallow: greeting}, nil
}

// Accept returns the next connection whose handshake has arrived.
func (l *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting and closes the connections whose handshake is pending.
func (l *guardListener) Close() error {
	var err error
	l.once.Do(func() {
		l.mu.Lock()
		l.closed = true
		for c := range l.pending {
			c.Close()
		}
		l.mu.Unlock()
		close(l.done)
		err = l.Listener.Close()
	})
	return err
}

// handedConn is a guarded connection whose handshake bytes have already been read
// (they are replayed to zmq4) and whose greeting has already been sent (zmq4's copy is
// swallowed).
type handedConn struct {
	*guardConn

	rmu    sync.Mutex
	replay []byte

	wmu     sync.Mutex
	swallow []byte // the greeting already sent; zmq4 writes it again
}

// Read returns the buffered handshake bytes first, then reads from the peer.
func (c *handedConn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	if len(c.replay) > 0 {
		n := copy(p, c.replay)
		c.replay = c.replay[n:]
		c.rmu.Unlock()
		return n, nil
	}
	c.rmu.Unlock()
	return c.guardConn.Read(p)
}

// Write drops zmq4's greeting, checking it is the one sent, and writes the rest.
func (c *handedConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	k := min(len(p), len(c.swallow))
	if k > 0 {
		if !bytes.Equal(p[:k], c.swallow[:k]) {
			c.swallow = nil
			c.wmu.Unlock()
			c.Conn.Close()
			return 0, fmt.Errorf("peer %s: zmq4's greeting % x differs from the one the guard sent: %w", c.RemoteAddr(), p[:k], errZMTP)
		}
		c.swallow = c.swallow[k:]
	}
	c.wmu.Unlock()
	if k == len(p) {
		return k, nil
	}
	n, err := c.Conn.Write(p[k:])
	return k + n, err
}

// guardTransport is a zmq4 transport whose listeners are guarded.
type guardTransport struct {
	network string   // "tcp" or "unix"
	peers   []string // socket types allowed to connect
	lim     Limits
	log     *slog.Logger
}

// Dial connects without a guard; the kernel only listens.
func (g guardTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := d.DialContext(ctx, g.network, addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return c, nil
}

// Listen listens on addr and guards every accepted connection.
func (g guardTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, g.network, addr)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return newGuardListener(l, g.lim, g.peers, g.log), nil
}

// Addr returns the network address of the endpoint part after "://".
func (g guardTransport) Addr(ep string) (string, error) {
	if g.network == "unix" {
		if ep == "" {
			return "", errors.New("empty ipc path")
		}
		return ep, nil
	}
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return "", fmt.Errorf("endpoint %q: %w", ep, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("endpoint %q: bad port: %w", ep, err)
	}
	if host == "*" || host == "" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, port), nil
}

// registerGuard registers a guarded transport for network, accepting peers of the given
// socket types, under a name unique to this socket (zmq4 keeps transports in a
// process-wide registry with no removal) and returns the endpoint scheme to use.
func registerGuard(network, id string, peers []string, lim Limits, log *slog.Logger) (string, error) {
	name := "kernelscope-" + network + "-" + id
	if err := zmq4.RegisterTransport(name, guardTransport{network: network, peers: peers, lim: lim, log: log}); err != nil {
		return "", fmt.Errorf("register guarded %s transport: %w", network, err)
	}
	return name, nil
}
