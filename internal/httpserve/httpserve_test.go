package httpserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the connections it has open, and the most at
// once: the descriptors a server holds for its clients.
type countingListener struct {
	net.Listener
	open, peak atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	n := l.open.Add(1)
	for {
		p := l.peak.Load()
		if n <= p || l.peak.CompareAndSwap(p, n) {
			break
		}
	}
	return &countedConn{Conn: c, l: l}, nil
}

type countedConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// SlowBodies opens n connections to addr that each send a POST's headers
// and then its body one byte every gap, and returns how many the server
// cut off before stop closed, and a func that closes the rest.
func SlowBodies(t testing.TB, addr string, n int, gap time.Duration) (cut func() int, stop func()) {
	t.Helper()
	var wg sync.WaitGroup
	var closed atomic.Int64
	done := make(chan struct{})
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial %d: %v", n, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
			t := time.NewTicker(gap)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
				}
				if _, err := c.Write([]byte{'{'}); err != nil {
					closed.Add(1)
					return
				}
			}
		}()
	}
	return func() int { return int(closed.Load()) }, func() { close(done); wg.Wait() }
}

// TestSlowBodiesAreShed: many clients dribbling a request body hold at
// most MaxConns connections of the server at once, each is cut off after
// the read timeout, and a normal request is served afterwards.
func TestSlowBodiesAreShed(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		io.WriteString(w, "ok")
	})
	const maxConns = 16
	go func() {
		served <- Serve(ctx, cl, h, Options{MaxConns: maxConns, ReadTimeout: 700 * time.Millisecond, ReadHeaderTimeout: 300 * time.Millisecond, MaxBodyBytes: 1 << 10})
	}()
	cut, stop := SlowBodies(t, ln.Addr().String(), 200, 50*time.Millisecond)
	deadline := time.Now().Add(30 * time.Second)
	for cut() < 150 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	if got := cut(); got < 150 {
		t.Errorf("the server cut off %d of 200 slow clients in 30 s", got)
	}
	if p := cl.peak.Load(); p > maxConns {
		t.Errorf("%d connections open at once, cap %d", p, maxConns)
	}
	// A client that sends its request at once is served.
	res, err := http.Post("http://"+ln.Addr().String()+"/", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "ok" {
		t.Errorf("a normal request: %d %q", res.StatusCode, body)
	}
	// A body over the bound is refused.
	res, err = http.Post("http://"+ln.Addr().String()+"/", "text/plain", strings.NewReader(strings.Repeat("x", 2<<10)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an oversized body: %d", res.StatusCode)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// A listen address is loopback when its host is localhost or a loopback
// IP; any other (every interface included) is refused unless remote
// access is allowed; an address without a port is refused.
func TestCheckAddr(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{"127.0.0.1:7420": true, "[::1]:7420": true, "localhost:7420": true, "127.1.2.3:80": true,
		"0.0.0.0:7420": false, ":7420": false, "192.168.1.5:7420": false, "[::]:7420": false, "example.org:80": false} {
		loop, err := CheckAddr(addr, false)
		if loop != want || (err == nil) != want {
			t.Errorf("CheckAddr(%q, false) = %v, %v", addr, loop, err)
		}
		if loop, err := CheckAddr(addr, true); loop != want || err != nil {
			t.Errorf("CheckAddr(%q, true) = %v, %v", addr, loop, err)
		}
	}
	for _, addr := range []string{"no-port", "127.0.0.1:http", "127.0.0.1:99999", "127.0.0.1:-1", "[::1]"} {
		if _, err := CheckAddr(addr, true); !errors.Is(err, ErrAddrForm) {
			t.Errorf("CheckAddr(%q, true) = %v, want ErrAddrForm", addr, err)
		}
	}
}

// Listen reports an address something already listens on as ErrInUse, and
// listens on a free one.
func TestListenInUse(t *testing.T) {
	t.Parallel()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ln2, err := Listen(ln.Addr().String()); !errors.Is(err, ErrInUse) {
		if ln2 != nil {
			ln2.Close()
		}
		t.Errorf("an address in use: %v, want ErrInUse", err)
	}
	if _, err := Listen("127.0.0.1:notaport"); err == nil || errors.Is(err, ErrInUse) {
		t.Errorf("a bad address: %v", err)
	}
}

// URL says the host as the user gave it, with the port the listener got;
// a host that listens on every interface, which no browser opens, is this
// machine's loopback address.
func TestURL(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for addr, want := range map[string]string{
		"0.0.0.0:0":          "http://127.0.0.1:" + port + "/mcp",
		"[::]:0":             "http://[::1]:" + port + "/mcp",
		"[::ffff:0.0.0.0]:0": "http://127.0.0.1:" + port + "/mcp",
		":0":                 "http://127.0.0.1:" + port + "/mcp",
		"localhost:0":        "http://localhost:" + port + "/mcp",
		"192.168.1.5:0":      "http://192.168.1.5:" + port + "/mcp",
		"[fe80::1]:0":        "http://[fe80::1]:" + port + "/mcp",
		"example.org:0":      "http://example.org:" + port + "/mcp",
	} {
		if got := URL(addr, ln, "/mcp"); got != want {
			t.Errorf("URL(%q) = %q, want %q", addr, got, want)
		}
	}
}

// Where names the address as the user gave it, with the port the listener
// got; an address that listens on every interface says so, rather than
// the listener's [::]:PORT, which nobody typed and no browser takes.
func TestWhere(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for addr, want := range map[string]string{
		":0":                "every network interface, port " + port,
		"0.0.0.0:0":         "every network interface, port " + port,
		"[::]:0":            "every network interface, port " + port,
		"192.168.1.5:0":     "192.168.1.5:" + port,
		"[fe80::1]:0":       "[fe80::1]:" + port,
		"example.org:0":     "example.org:" + port,
		"localhost:0":       "localhost:" + port,
		"127.0.0.1:" + port: "127.0.0.1:" + port,
	} {
		if got := Where(addr, ln); got != want {
			t.Errorf("Where(%q) = %q, want %q", addr, got, want)
		}
	}
}
