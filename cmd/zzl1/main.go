package main

import (
	"fmt"
	"os"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

var _ = inbox.Message{}
var _ = registry.Registration{}

func main() { fmt.Fprintln(os.Stdout, "v1") }
