package kernel_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/kernelscope/kernelscope/kernel"
)

// TestSilentPeersDoNotDelayClients connects ten TCP peers that never send a byte to the
// shell port, then a new client: its kernel_info_request is answered while they are
// still within their handshake deadline, here an hour, so the old one-at-a-time accept
// path, waiting out each silent peer, would never answer it (c.reply gives up after wait).
func TestSilentPeersDoNotDelayClients(t *testing.T) {
	lim := kernel.DefaultLimits()
	lim.Handshake = time.Hour
	c := startKernel(t, kernel.GuardLimits(lim))
	for range 10 {
		s, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", c.conn.ShellPort))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	late := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("late-"+c.session)))
	defer late.Close()
	start := time.Now()
	if err := late.Dial(fmt.Sprintf("tcp://127.0.0.1:%d", c.conn.ShellPort)); err != nil {
		t.Fatal(err)
	}
	ch := make(chan *kernel.Message, 10)
	go c.pump(late, ch)
	r := c.reply(ch, c.send(late, "kernel_info_request", map[string]any{}))
	elapsed := time.Since(start)
	if r.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("reply %s", r.Header.MsgType)
	}
	t.Logf("kernel_info with 10 silent peers connected: %v", elapsed)
}
