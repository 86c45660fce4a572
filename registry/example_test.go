package registry_test

import (
	"context"
	"fmt"
	"os"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// Register an agent, deliver a message to it, and let it claim the message.
func Example() {
	root, _ := os.MkdirTemp("", "parley-example-")
	defer os.RemoveAll(root)
	ctx := context.Background()

	tr, _ := inbox.NewFileTransport(root)
	defer tr.Close()
	reg, err := registry.Open(root, tr)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()

	// The agent registers (this creates its inbox) ...
	me, err := reg.Register(ctx, registry.Registration{Name: "GoldFalcon", Roles: []string{"defender"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Unregister(ctx, me.Name, me.SessionID)
	alive, _ := reg.Alive(ctx, "GoldFalcon")
	fmt.Println("registered:", me.Name, "alive:", alive)

	// ... someone delivers to it ...
	_ = tr.Send(ctx, &inbox.Message{From: "SwiftRaven", To: me.Name, Text: "Your turn."})

	// ... and it claims and acknowledges.
	r, _ := tr.Listen(ctx, me.Name)
	defer r.Close()
	d, _ := r.Receive(ctx)
	fmt.Println(d.Message.From+":", d.Message.Text)
	_ = r.Ack(ctx, d)
	// Output:
	// registered: GoldFalcon alive: true
	// SwiftRaven: Your turn.
}
