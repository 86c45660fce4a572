package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/httpserve"
)

func TestMCPHTTPAddressChecks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "0.0.0.0:7421"}, "--http 0.0.0.0:7421 is not a loopback address"},
		{[]string{"--http", ":7421"}, "--http :7421 is not a loopback address"},
		{[]string{"--http", "192.168.1.2:7421"}, "add --allow-remote if you mean it"},
		{[]string{"--http", "localhost"}, "want HOST:PORT"},
		{[]string{"--http", "127.0.0.1:99999"}, "the port must be a number"},
		{[]string{"--trusted"}, "--allow-remote and --trusted apply to --http only"},
		// An empty --http (an unset variable in --http "$ADDR") is refused
		// as "parley serve --addr ''" is, not served over stdio.
		{[]string{"--http", ""}, `--http: bad listen address: "": want HOST:PORT`},
		{[]string{"--http", "", "--trusted"}, `--http: bad listen address: "": want HOST:PORT`},
	} {
		_, stderr, code := dcli(t, root, append([]string{"mcp"}, c.args...)...)
		if code != cmdutil.ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("mcp %v: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	for _, host := range []string{"127.0.0.1", "127.8.9.10", "::1", "localhost", "LOCALHOST"} {
		if !httpserve.LoopbackHost(host) {
			t.Errorf("%s is loopback", host)
		}
	}
	for _, host := range []string{"", "0.0.0.0", "::", "10.0.0.1", "example.com", "127.0.0.1.example.com"} {
		if httpserve.LoopbackHost(host) {
			t.Errorf("%s is not loopback", host)
		}
	}
	// --allow-remote lets a remote address through, with a warning once
	// it listens that names where, with the port it got: never ":0" or
	// "[::]".
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for addr, want := range map[string]string{
		"192.168.1.5:7421": "warning: serving MCP on 192.168.1.5:" + port + ", which is not a loopback address",
		":0":               "warning: serving MCP on every network interface, port " + port + ", which is not a loopback address",
		"[::]:0":           "warning: serving MCP on every network interface, port " + port + ", which is not a loopback address",
		"127.0.0.1:0":      "warning: --allow-remote with the loopback address 127.0.0.1:" + port + ": only this machine can connect",
	} {
		var errb bytes.Buffer
		a := &factory{&cmdutil.Factory{Stderr: &errb}}
		warn, err := checkListenAddr(a, addr, true)
		if err != nil || warn == nil {
			t.Errorf("allow-remote %s: %v, warning %v", addr, err, warn != nil)
			continue
		}
		warn(ln)
		if !strings.Contains(errb.String(), want) {
			t.Errorf("allow-remote %s: %q, want %q", addr, errb.String(), want)
		}
	}
}

// An --http address already in use is one line that says so and what to
// do, in the words of "parley serve" (the same helper), naming --http.
func TestMCPHTTPAddressInUse(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, stderr, code := dcli(t, filepath.Join(t.TempDir(), "root"), "mcp", "--http", addr)
	want := "parley: " + addr + " is in use (another parley mcp --http?): stop what listens there or choose another --http\n"
	if code != cmdutil.ExitError || stderr != want {
		t.Errorf("exit %d, %q; want exit %d, %q", code, stderr, cmdutil.ExitError, want)
	}
}

// A --vault that is not there stops "parley mcp" as it stops "parley
// consensus check" (one line, how to make one, exit 1), and is not made:
// the server made it empty, and answered "none" to every consensus_check.
func TestMCPRefusesAMissingVault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, vault := filepath.Join(dir, "root"), filepath.Join(dir, "vualt")
	for _, args := range [][]string{{"mcp"}, {"mcp", "--http", "127.0.0.1:0"}} {
		_, stderr, code := runT(t, "", append([]string{"--root", root, "--vault", vault}, args...)...)
		want := "parley: there is no vault at " + vault + " (parley --root " + root + " --vault " + vault + " init makes one)\n"
		if code != cmdutil.ExitError || stderr != want {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", args, code, stderr, cmdutil.ExitError, want)
		}
		if _, err := os.Stat(vault); err == nil {
			t.Fatalf("%v made the missing vault", args)
		}
	}
}

// TestMCPOverHTTP serves the streamable HTTP transport on a loopback port
// and drives it with the Go SDK's client: the tools answer, and debate_start
// refuses agents that run commands or read files unless --trusted.
func TestMCPOverHTTP(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"--root", root, "--json", "mcp", "--http", "127.0.0.1:0"}, strings.NewReader(""), pw, &errb)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v (%s)", err, errb.String())
	}
	go io.Copy(io.Discard, pr)
	var ev struct{ Event, URL string }
	if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Event != "listening" || !strings.HasPrefix(ev.URL, "http://127.0.0.1:") || !strings.HasSuffix(ev.URL, "/mcp") {
		t.Fatalf("listening line %q: %v", line, err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ev.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 14 {
		t.Fatalf("tools: %v %d", err, len(tools.Tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "consensus_check", Arguments: map[string]any{"layer": "spec", "topic": "Anything", "position": "At all"}})
	if err != nil || res.IsError {
		t.Fatalf("consensus_check: %v %+v", err, res)
	}
	if st := res.StructuredContent.(map[string]any)["status"]; st != "none" {
		t.Errorf("status %v", st)
	}
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(concedingCritic), 0o600)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=exec:cat /etc/passwd", "defender=@X"}}, "exec: agents are refused over HTTP unless parley mcp runs with --trusted"},
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=script:" + script, "defender=@X"}}, "script: agents are refused over HTTP"},
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=@Y", "defender=@X"}, "context": []string{"/etc/passwd"}}, "context files and a workspace are refused over HTTP"},
		// Past those checks, the CLI's own: its messages name the fields.
		{map[string]any{"layer": "spek", "topic": "t", "agents": []string{"attacker=@Y", "defender=@X"}}, `layer: unknown layer: "spek"`},
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=@Y", "defender=@X"}}, "agent Y is not running: join it first with debate_join"},
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"defender=@X"}}, "a debate needs at least one attacker"},
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=@Y", "defender=@X"}, "max_rounds": 0}, "max_rounds 0: must be positive"},
		{map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=@../Y", "defender=@X"}}, `agents "attacker=@../Y": invalid agent spec`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "debate_start", Arguments: c.args})
		if err != nil || !res.IsError {
			t.Errorf("debate_start %v: %v, not a tool error", c.args, err)
			continue
		}
		if msg := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(msg, c.want) {
			t.Errorf("debate_start %v: %q, want %q", c.args, msg, c.want)
		}
	}
	// A participant that joined as defender is not made an attacker: the
	// debate is refused, naming it, the role it joined as and the role asked.
	for _, name := range []string{"Proposer", "Other"} {
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "debate_join", Arguments: map[string]any{"role": "defender", "name": name}}); err != nil || res.IsError {
			t.Fatalf("debate_join %s: %v %+v", name, err, res)
		}
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "debate_start", Arguments: map[string]any{"layer": "spec", "topic": "t", "agents": []string{"attacker=@Proposer", "defender=@Other"}}})
	want := "agent Proposer joined as defender, not attacker: name it defender=@Proposer in agents, or an agent that joined as attacker (debate_join with role attacker)"
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != want {
		t.Errorf("debate_start with a defender as attacker: %v %+v, want the error %q", err, res, want)
	}
	if _, err := os.Stat(filepath.Join(root, "debates")); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(root, "debates")); len(ents) != 0 {
			t.Errorf("a refused debate_start left %d debate(s)", len(ents))
		}
	}
	cs.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcp --http: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("mcp --http did not stop in 30 s")
	}
}

// The servers print the address they were given, with the port they got,
// as a URL a browser or client opens: "--http 0.0.0.0:PORT" (every
// interface) is http://127.0.0.1:PORT/mcp, neither http://0.0.0.0:PORT/mcp
// nor the listener's http://[::]:PORT/mcp, and "localhost" stays
// localhost.
func TestHTTPServersPrintTheAddressGiven(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	mustRun(t, root, "init")
	for _, c := range []struct {
		args       []string
		host, path string
	}{
		{[]string{"mcp", "--http", "0.0.0.0:0", "--allow-remote"}, "127.0.0.1", "/mcp"},
		{[]string{"mcp", "--http", "[::]:0", "--allow-remote"}, "[::1]", "/mcp"},
		{[]string{"mcp", "--http", ":0", "--allow-remote"}, "127.0.0.1", "/mcp"},
		{[]string{"mcp", "--http", "localhost:0"}, "localhost", "/mcp"},
		{[]string{"mcp", "--http", "[::1]:0"}, "[::1]", "/mcp"},
		{[]string{"serve", "--addr", "0.0.0.0:0", "--allow-remote"}, "127.0.0.1", "/"},
		{[]string{"serve", "--addr", "[::]:0", "--allow-remote"}, "[::1]", "/"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		done := make(chan error, 1)
		var errb bytes.Buffer
		go func() {
			done <- run(ctx, append([]string{"--root", root, "--json"}, c.args...), strings.NewReader(""), pw, &errb)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		go io.Copy(io.Discard, pr)
		var ev struct{ Event, URL string }
		if err != nil || json.Unmarshal([]byte(line), &ev) != nil {
			if noSuchAddress(errb.String()) {
				t.Logf("%v: no such address here: %s", c.args, errb.String())
			} else {
				t.Errorf("%v: no listening line: %v %q (%s)", c.args, err, line, errb.String())
			}
		} else if re := regexp.MustCompile(`^http://` + regexp.QuoteMeta(c.host) + `:[1-9][0-9]*` + regexp.QuoteMeta(c.path) + `$`); !re.MatchString(ev.URL) {
			t.Errorf("%v: listening at %q, want http://%s:PORT%s", c.args, ev.URL, c.host, c.path)
		}
		cancel()
		if err := <-done; err != nil && !noSuchAddress(errb.String()) {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}

// noSuchAddress says a server's error is that this machine has no such
// address ([::1] or [::] on a host without IPv6), which a test skips.
func noSuchAddress(stderr string) bool {
	return strings.Contains(stderr, "cannot assign requested address") || strings.Contains(stderr, "address family not supported")
}
