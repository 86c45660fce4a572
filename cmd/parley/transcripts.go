package main

import (
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/transcripts"
)

// newTranscriptsCmd is "parley transcripts list | show ID | verify ID".
func newTranscriptsCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "transcripts",
		Short: "List, read and verify debate transcripts",
		Args:  exactArgs(0),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	for _, s := range transcriptsCommands(a) {
		cmd.AddCommand(s)
	}
	return cmd
}

// transcriptsCommands lists the subcommands, one file each (transcripts_<name>.go).
func transcriptsCommands(a *factory) []*cobra.Command {
	return []*cobra.Command{newTranscriptsListCmd(a), newTranscriptsShowCmd(a), newTranscriptsVerifyCmd(a), newTranscriptsKeygenCmd(a)}
}

// store opens the debates of the parley root (app.OpenDebates).
func (a *factory) store() (*transcripts.Store, error) { return a.service().OpenDebates() }
