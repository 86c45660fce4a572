package main

import (
	"fmt"
	"os"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
	"github.com/spf13/cobra"
)

var _ = inbox.Message{}
var _ = registry.Registration{}

func main() { c := &cobra.Command{Use: "x"}; _ = c; fmt.Fprintln(os.Stdout, "v1") }
