package inbox_test

import (
	"context"
	"fmt"
	"os"

	"github.com/parleyhq/parley/inbox"
)

// Deliver a message to an agent's inbox, then claim and acknowledge it.
func Example() {
	root, _ := os.MkdirTemp("", "parley-example-")
	defer os.RemoveAll(root)
	ctx := context.Background()

	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tr.Close()
	_ = tr.Create(ctx, "Bob") // parley agents add Bob

	// Deliver: once Send returns, the message is on disk.
	if err := tr.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: "Is the idempotency key per request?"}); err != nil {
		fmt.Println(err)
		return
	}

	// Claim, handle, acknowledge (the file moves to inbox/Bob/cur/).
	r, err := tr.Listen(ctx, "Bob")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	d, err := r.Receive(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s → %s: %s\n", d.Message.From, d.Message.To, d.Message.Text)
	if err := r.Ack(ctx, d); err != nil {
		fmt.Println(err)
		return
	}
	waiting, acked, _, _ := tr.Count(ctx, "Bob")
	fmt.Println("waiting:", waiting, "acknowledged:", acked)
	// Output:
	// Alice → Bob: Is the idempotency key per request?
	// waiting: 0 acknowledged: 1
}
