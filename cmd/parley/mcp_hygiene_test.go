//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/transcripts"
)

// childrenOf counts the processes whose parent is pid: running ones and
// zombies (state Z, exited but not reaped).
func childrenOf(pid int) (live, zombies int) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(pid) {
			continue
		}
		if f[0] == "Z" {
			zombies++
		} else {
			live++
		}
	}
	return live, zombies
}

// A long-running "parley mcp" reaps the debates it starts: after N
// debate_start calls whose debates have closed, it has no zombie child,
// over stdio and over HTTP.
func TestMCPDebateStartLeavesNoZombie(t *testing.T) {
	t.Parallel()
	const n = 4
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			root := filepath.Join(dir, "root")
			s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var (
				cmd *exec.Cmd
				tr  mcp.Transport
			)
			stderr := &syncBuffer{} // the server's, shown when the test fails
			if transport == "stdio" {
				cmd = testBinary(t, "--root", root, "mcp")
				cmd.Stderr = stderr
				tr = &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}
			} else {
				cmd = testBinary(t, "--root", root, "--json", "mcp", "--http", "127.0.0.1:0", "--trusted")
				cmd.Stderr = stderr
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
				// A server that never says it listens fails the test
				// when ctx ends, rather than hanging it.
				lines := make(chan string, 1)
				go func() {
					line, _ := bufio.NewReader(out).ReadString('\n')
					lines <- line
					io.Copy(io.Discard, out)
				}()
				var line string
				select {
				case line = <-lines:
				case <-ctx.Done():
					t.Fatalf("no listening line in 2 minutes; stderr %q", stderr.String())
				}
				var ev struct{ URL string }
				if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.URL == "" {
					t.Fatalf("no listening line: %q %v; stderr %q", line, err, stderr.String())
				}
				tr = &mcp.StreamableClientTransport{Endpoint: ev.URL, DisableStandaloneSSE: true}
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "zombie-test", Version: "1"}, nil).Connect(ctx, tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			var ids []string
			for i := range n {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "debate_start", Arguments: map[string]any{
					"layer": "spec", "topic": "Idempotency keys " + strconv.Itoa(i), "position": "Use UUIDv7 keys",
					"agents": []string{"attacker=script:" + s["critic"], "defender=script:" + s["proposer"]}}})
				if err != nil || res.IsError {
					t.Fatalf("debate_start: %v %+v", err, res)
				}
				ids = append(ids, res.StructuredContent.(map[string]any)["debate_id"].(string))
			}
			st := openStore(t, root)
			pid := cmd.Process.Pid
			for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				closed := 0
				for _, id := range ids {
					if _, err := st.Verdict(id); err == nil {
						closed++
					}
				}
				live, zombies := childrenOf(pid)
				if closed == n && live == 0 && zombies == 0 {
					return
				}
				if time.Now().After(deadline) {
					var logs strings.Builder
					for _, id := range ids {
						if _, err := st.Verdict(id); err != nil {
							b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(transcripts.Path(id, "logs/coordinator.log"))))
							fmt.Fprintf(&logs, "\ndebate %s has no verdict (%v); its coordinator's log:\n%s", id, err, b)
						}
					}
					t.Fatalf("%d of %d debates closed; the mcp server (pid %d) has %d live and %d zombie children; its stderr %q%s", closed, n, pid, live, zombies, stderr.String(), logs.String())
				}
			}
		})
	}
}

// A stdio client that goes away (its end of our standard output closed)
// ends the session: the server leaves its debates and unregisters its
// participants before it exits, rather than dying of SIGPIPE at its next
// reply with its participants still registered.
func TestMCPStdioClientGoneUnregisters(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "--root", root, "mcp")
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	replies := bufio.NewReader(outR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		t.Helper()
		l, err := replies.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	read()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"debate_join","arguments":{"role":"defender","name":"Zed"}}}`)
	if l := read(); !strings.Contains(l, `defender=@Zed`) {
		t.Fatalf("debate_join: %s", l)
	}
	// The client goes: it reads nothing more; a request it sent is answered
	// into the closed pipe.
	outR.Close()
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"consensus_search","arguments":{"query":"x"}}}`)
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("parley mcp did not end after its client went away")
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Errorf("parley mcp was killed by %v when its client went away", ws.Signal())
	}
	out, _, _ := dcli(t, root, "--json", "agents", "show", "Zed")
	if !strings.Contains(out, `"registered":false`) {
		t.Errorf("Zed is still registered after its server ended: %s", out)
	}
}
