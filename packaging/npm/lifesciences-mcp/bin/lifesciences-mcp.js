#!/usr/bin/env node
// The `lifesciences-mcp` command of the npm package: it starts the gateway's native binary,
// which npm installed as the optional dependency made for this platform
// (`@lifesciences-mcp/<os>-<cpu>`), with this process's arguments, environment and stdio
// (an MCP client talks to the binary directly). It forwards the signals that end a server
// and ends the way the binary ended. Plain Node, no dependencies: nothing is downloaded at
// install time beyond the packages themselves.
'use strict';

const { spawn } = require('child_process');
const path = require('path');

const { optionalDependencies = {}, version } = require('../package.json');

const target = `${process.platform}-${process.arch}`;
const platformPackage = `@lifesciences-mcp/${target}`;
const executable = process.platform === 'win32' ? 'lifesciences-mcp.exe' : 'lifesciences-mcp';

function fail(lines) {
  process.stderr.write(`lifesciences-mcp: ${lines.join('\n  ')}\n`);
  process.exit(1);
}

const otherInstalls =
  'Other ways to install it: `uvx lifesciences-mcp` or `pip install lifesciences-mcp`, ' +
  'or `cargo install --locked lifesciences-mcp` (https://github.com/lifesciences-mcp/lifesciences-mcp).';

if (!Object.prototype.hasOwnProperty.call(optionalDependencies, platformPackage)) {
  const supported = Object.keys(optionalDependencies)
    .map((name) => name.replace('@lifesciences-mcp/', ''))
    .join(', ');
  fail([
    `no prebuilt binary for this platform (${target}); there are binaries for ${supported}.`,
    otherInstalls,
  ]);
}

let binary;
try {
  binary = require.resolve(`${platformPackage}/bin/${executable}`);
} catch {
  fail([
    `the package ${platformPackage}@${version}, which holds the binary for this platform, is not installed.`,
    'npm installs it with lifesciences-mcp as an optional dependency: it is missing when optional',
    'dependencies were left out (--omit=optional, --no-optional, a lockfile made on another platform)',
    `or when node_modules was copied from another platform. Reinstall lifesciences-mcp, or install`,
    `${platformPackage}@${version} beside it.`,
    otherInstalls,
  ]);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });

// A client that stops the server signals this process; the binary must get it too (a
// Ctrl-C in a terminal reaches both, which the binary takes as one).
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
    }
  });
}

child.on('error', (error) => {
  fail([`cannot start ${binary}: ${error.message}`]);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // End the same way, so whoever started this process sees the signal.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    // A signal that does not end this process (e.g. one Windows cannot raise).
    setTimeout(() => process.exit(1), 100).unref();
    return;
  }
  process.exit(code === null ? 1 : code);
});
