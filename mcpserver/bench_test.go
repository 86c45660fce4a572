package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
)

// BenchmarkConsensusCheckTool is one consensus_check call through the SDK's
// client and server over the in-memory transport, against 200 records: the
// MCP layer's cost on top of the lookup (consensus.BenchmarkCheckWarm).
func BenchmarkConsensusCheckTool(b *testing.B) {
	e := newEnv(b)
	for i := range 200 {
		e.file(b, fmt.Sprintf("20261130-spec-topic-number-%d-aaaaaa", i), fmt.Sprintf("Topic number %d", i), debate.LayerSpec, debate.ConsensusReached, fmt.Sprintf("Position %d", i))
	}
	args := CheckInput{Layer: "spec", Topic: "Topic number 7", Position: "Position 8"}
	// Records written less than consensus.RacyMargin ago are re-read at
	// every lookup: wait it out, as "parley bench consensus" does.
	time.Sleep(consensus.RacyMargin + 100*time.Millisecond)
	if out := ok[CheckOutput](b, e.client, "consensus_check", args); out.Status != "conflict" {
		b.Fatalf("%+v", out)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.client.CallTool(context.Background(), &mcp.CallToolParams{Name: "consensus_check", Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkConsensusCheckStdio is the same call to the real binary over
// stdio (pipes, JSON-RPC framing, another process).
func BenchmarkConsensusCheckStdio(b *testing.B) {
	root := b.TempDir()
	fileRecords(b, root)
	cs := stdioClient(b, root)
	time.Sleep(consensus.RacyMargin + 100*time.Millisecond)
	args := CheckInput{Layer: "spec", Topic: "Idempotency keys", Position: "Use random keys"}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "consensus_check", Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkServeStdioToolsList is one tools/list request and its reply
// (every tool's schema, about 10 KB) through ServeStdio in process: the
// frame filter's cost on top of the SDK's own framing.
func BenchmarkServeStdioToolsList(b *testing.B) {
	e := newEnv(b)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- e.srv.ServeStdio(context.Background(), inR, outW) }()
	out := bufio.NewReaderSize(outR, 1<<20)
	roundTrip := func(line string) []byte {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		reply, err := out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return reply
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	for b.Loop() {
		n = len(roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	}
	b.StopTimer()
	b.ReportMetric(float64(n), "reply-bytes")
	inW.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	outR.Close()
}
