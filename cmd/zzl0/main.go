package main

import (
	"fmt"
	"os"
)

func main() { fmt.Fprintln(os.Stdout, "v1"); _ = os.Args }
