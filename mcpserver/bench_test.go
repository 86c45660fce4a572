package mcpserver

import (
	"context"
	"fmt"
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
