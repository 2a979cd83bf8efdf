#!/usr/bin/env node
/** The `toon-gen` executable. */
import { runCli } from "./main.ts";

runCli();
