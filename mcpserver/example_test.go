package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/mcpserver"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// A Server on a parley root, and an MCP client asking it whether a
// position contradicts a filed consensus (here over the SDK's in-memory
// transport; "parley mcp" serves the same Server on stdio).
func ExampleServer() {
	dir, _ := os.MkdirTemp("", "parley-example-")
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, ".parley")
	tr, _ := inbox.NewFileTransport(root)
	defer tr.Close()
	reg, _ := registry.Open(root, tr)
	defer reg.Close()
	v, _ := vault.Create(filepath.Join(root, "vault"))
	defer v.Close()
	cs, _ := consensus.Open(root, v)
	defer cs.Close()
	store, _ := transcripts.OpenStore(root, nil)
	defer store.Close()
	// A filed consensus: "Use UUIDv7 keys" for the spec question "Idempotency keys".
	cs.File(context.Background(), consensustest.Outcome("20261130-spec-idempotency-keys-aaaaaa", "Idempotency keys",
		debate.LayerSpec, debate.ConsensusReached, "Use UUIDv7 keys", "Keys leak the creation time", false))

	srv, err := mcpserver.New(mcpserver.Config{Transport: tr, Registry: reg, Consensus: cs, Transcripts: store, Root: root})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ct, st := mcp.NewInMemoryTransports()
	ss, _ := srv.MCP().Connect(context.Background(), st, nil)
	defer ss.Wait()
	client, _ := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(context.Background(), ct, nil)
	defer client.Close()

	res, _ := client.CallTool(context.Background(), &mcp.CallToolParams{Name: "consensus_check",
		Arguments: map[string]any{"layer": "spec", "topic": "Idempotency keys", "position": "Use random keys"}})
	out := res.StructuredContent.(map[string]any)
	fmt.Println(out["status"], out["record"])
	fmt.Println("filed:", out["final_position"])
	// Output:
	// conflict wiki/consensus/spec-idempotency-keys.md
	// filed: Use UUIDv7 keys
}
