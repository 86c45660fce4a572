package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/httpserve"
)

// openFDs counts the descriptors process pid holds (Linux): its sockets
// (the listener and the connections) and the others (files, pipes).
func openFDs(t testing.TB, pid int) (sockets, others int) {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("count the server's descriptors: %v", err)
	}
	for _, e := range ents {
		// A descriptor closed since ReadDir has no link: it counts as
		// neither.
		switch l, err := os.Readlink(filepath.Join(dir, e.Name())); {
		case err != nil:
		case strings.HasPrefix(l, "socket:"):
			sockets++
		default:
			others++
		}
	}
	return sockets, others
}

// startServer runs "parley ARGS" as its own process and returns its pid
// and the URL it prints (on stdout or stderr).
func startServer(t *testing.T, args ...string) (pid int, url string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); pw.Close() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		re := regexp.MustCompile(`http://[0-9.:\[\]]+/\S*`)
		for sc.Scan() {
			if u := re.FindString(sc.Text()); u != "" {
				select {
				case found <- u:
				default:
				}
			}
		}
	}()
	select {
	case url = <-found:
	case <-time.After(20 * time.Second):
		t.Fatalf("%v printed no URL", args)
	}
	return cmd.Process.Pid, url
}

// slowClients opens n connections that send a POST's headers and then
// one byte of body every gap, until stop.
func slowClients(t *testing.T, addr, path string, n int, gap time.Duration) (stop func()) {
	t.Helper()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for i := range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", path, addr)
			tk := time.NewTicker(gap)
			defer tk.Stop()
			for {
				select {
				case <-done:
					return
				case <-tk.C:
				}
				if _, err := c.Write([]byte{' '}); err != nil {
					return
				}
			}
		}()
	}
	return func() { close(done); wg.Wait() }
}

// TestHTTPServersShedSlowBodies: 600 clients dribbling request bodies at
// "parley serve" and at "parley mcp --http" leave each server holding no
// more sockets than its listener and its connection cap, and once they
// are gone no more other descriptors than its own few (a request's files
// are closed), and a normal request is served.
func TestHTTPServersShedSlowBodies(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	if _, errs, code := dcli(t, root, "init"); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		name, path string
		args       []string
		get        func(base string) (*http.Response, error)
	}{
		{"serve", "/", []string{"--root", root, "serve", "--addr", "127.0.0.1:0"}, func(base string) (*http.Response, error) { return http.Get(base) }},
		{"mcp --http", "/mcp", []string{"--root", root, "mcp", "--http", "127.0.0.1:0"}, func(base string) (*http.Response, error) {
			return http.Post(base, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pid, url := startServer(t, c.args...)
			sockBefore, othersBefore := openFDs(t, pid)
			addr := regexp.MustCompile(`[0-9.]+:[0-9]+`).FindString(url)
			rssBefore := residentKB(t, pid)
			for _, load := range []struct {
				name  string
				start func() func()
			}{
				{"slow bodies", func() func() { return slowClients(t, addr, c.path, 600, 200*time.Millisecond) }},
				{"idle kept-alive sessions", func() func() { return idleClients(t, addr, c.path, 600) }},
			} {
				stop := load.start()
				// The cap bounds the sockets at every instant, however
				// busy the machine. The handlers of the requests being
				// served hold files of the root for a moment, as many as
				// run at once: those are counted once the clients are gone.
				peak := 0
				for range 10 {
					time.Sleep(200 * time.Millisecond)
					sockets, _ := openFDs(t, pid)
					peak = max(peak, sockets)
				}
				stop()
				if limit := sockBefore + httpserve.DefaultMaxConns; peak > limit {
					t.Errorf("%s held %d sockets under 600 clients with %s (%d before, cap %d connections)", c.name, peak, load.name, sockBefore, httpserve.DefaultMaxConns)
				}
				others := 0
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					if _, others = openFDs(t, pid); others <= othersBefore+8 || time.Now().After(deadline) {
						break
					}
				}
				if others > othersBefore+8 {
					t.Errorf("%s holds %d descriptors other than sockets 20 s after 600 clients with %s (%d before)", c.name, others, load.name, othersBefore)
				}
				growth := 100 << 10 // KB
				if raceBuild {
					growth *= 10
				}
				if rss := residentKB(t, pid); rss > rssBefore+growth {
					t.Errorf("%s grew from %d KB to %d KB resident under 600 clients with %s", c.name, rssBefore, rss, load.name)
				}
				t.Logf("%s: %d sockets before, at most %d under 600 clients with %s; %d other descriptors before, %d after; resident %d KB before, %d KB after", c.name, sockBefore, peak, load.name, othersBefore, others, rssBefore, residentKB(t, pid))
			}
			var res *http.Response
			var err error
			for range 50 { // the slow clients' slots free as they close
				if res, err = c.get(url); err == nil {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err != nil {
				t.Fatalf("a normal request after them: %v", err)
			}
			res.Body.Close()
			if res.StatusCode >= 500 {
				t.Errorf("a normal request after them: %d", res.StatusCode)
			}
		})
	}
}

// TestAllowRemoteOnLoopbackKeepsTheHostCheck: --allow-remote on a loopback
// address says what it exposes and still refuses a request naming another
// host (DNS rebinding).
func TestAllowRemoteOnLoopbackKeepsTheHostCheck(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	if _, errs, code := dcli(t, root, "init"); code != 0 {
		t.Fatal(errs)
	}
	url, stderr, stop := startServe(t, "--root", root, "serve", "--addr", "127.0.0.1:0", "--allow-remote")
	defer stop()
	if !strings.Contains(stderr.String(), "--allow-remote with the loopback address 127.0.0.1:") || !strings.Contains(stderr.String(), "only this machine can connect") {
		t.Errorf("no word of what --allow-remote exposes: %q", stderr.String())
	}
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Host = "rebound.example.com"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request naming another host: %d, want 421", res.StatusCode)
	}
	if _, errs, code := dcli(t, root, "mcp", "--http", "127.0.0.1:bad", "--allow-remote"); code != cmdutil.ExitUsage {
		t.Errorf("mcp --http with a bad port: exit %d %s", code, errs)
	}
}

// idleClients opens n connections that each send one whole request and
// then keep the connection open, idle, until stop: kept-alive sessions.
func idleClients(t *testing.T, addr, path string, n int) (stop func()) {
	t.Helper()
	var conns []net.Conn
	for i := range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
		conns = append(conns, c)
	}
	return func() {
		for _, c := range conns {
			c.Close()
		}
	}
}

// residentKB is process pid's resident set (Linux).
func residentKB(t testing.TB, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	var kb int
	if m := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(data); m != nil {
		fmt.Sscan(string(m[1]), &kb)
	}
	return kb
}
