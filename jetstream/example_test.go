package jetstream_test

import (
	"context"
	"fmt"
	"os"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// Register an agent, deliver a message to it and let it claim the message,
// all through a NATS JetStream server (here one embedded in the process;
// in use, Config.URL names yours).
func Example() {
	dir, _ := os.MkdirTemp("", "parley-nats-example-")
	defer os.RemoveAll(dir)
	srv, err := natsserver.Start(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Stop()
	ctx := context.Background()

	c, err := jetstream.Connect(ctx, jetstream.Config{URL: srv.URL()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	tr := c.Transport()
	reg := jetstream.NewRegistry(c, tr)

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
