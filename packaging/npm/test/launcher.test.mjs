// The npm launcher (packaging/npm/lifesciences-mcp/bin/lifesciences-mcp.js) laid out as npm
// installs it, with a stand-in for the platform package's binary (a shell script): it must
// pass the arguments and the exit code through, forward SIGTERM, end by the signal that
// ended the binary, and name the missing package when there is none.
// Run: node --test packaging/npm/test/   (POSIX only: the stand-in is a shell script)

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const launcherSource = path.join(here, '..', 'lifesciences-mcp');
const target = `${process.platform}-${process.arch}`;
const posix = process.platform !== 'win32';

const STAND_IN = `#!/bin/sh
case "$1" in
  exit) exit "$2" ;;
  args) shift; for a in "$@"; do printf '%s\\n' "$a"; done ;;
  wait) trap 'echo terminated; exit 0' TERM; echo ready; i=0
        while [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done; exit 3 ;;
  die) kill -KILL $$ ;;
esac
`;

const roots = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A folder with node_modules as npm lays it out; the launcher's path. */
function install({ platformPackage = true, platforms = [target] } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifesciences-mcp-launcher-'));
  roots.push(root);
  const launcher = path.join(root, 'node_modules', 'lifesciences-mcp');
  fs.cpSync(path.join(launcherSource, 'bin'), path.join(launcher, 'bin'), { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(launcherSource, 'package.json'), 'utf8'));
  pkg.version = '9.8.7';
  pkg.optionalDependencies = Object.fromEntries(platforms.map((p) => [`@lifesciences-mcp/${p}`, '9.8.7']));
  fs.writeFileSync(path.join(launcher, 'package.json'), JSON.stringify(pkg));
  if (platformPackage) {
    const dir = path.join(root, 'node_modules', '@lifesciences-mcp', target);
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `@lifesciences-mcp/${target}`, version: '9.8.7' }));
    fs.writeFileSync(path.join(dir, 'bin', 'lifesciences-mcp'), STAND_IN, { mode: 0o755 });
  }
  return path.join(launcher, 'bin', 'lifesciences-mcp.js');
}

const run = (launcher, args) => spawnSync(process.execPath, [launcher, ...args], { encoding: 'utf8' });

test('passes the arguments through and exits with the binary\'s code', { skip: !posix }, () => {
  const launcher = install();
  const echoed = run(launcher, ['args', '--toolsets', 'ensembl,igvf', 'two words']);
  assert.equal(echoed.status, 0, echoed.stderr);
  assert.equal(echoed.stdout, '--toolsets\nensembl,igvf\ntwo words\n');
  assert.equal(run(launcher, ['exit', '2']).status, 2);
  assert.equal(run(launcher, ['exit', '0']).status, 0);
  assert.equal(run(launcher, ['exit', '42']).status, 42);
});

test('forwards SIGTERM to the binary, which ends as it chooses', { skip: !posix, timeout: 10_000 }, async (t) => {
  const launcher = install();
  const child = spawn(process.execPath, [launcher, 'wait'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // On failure, end the launcher; the stand-in gives up by itself after 10 s.
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('ready')) resolve();
    });
  });
  child.kill('SIGTERM');
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  assert.match(stdout, /terminated/, 'the binary got SIGTERM');
  assert.deepEqual([code, signal], [0, null]);
});

test('ends by the signal that ended the binary', { skip: !posix, timeout: 10_000 }, () => {
  const result = run(install(), ['die']);
  assert.equal(result.status, null);
  assert.equal(result.signal, 'SIGKILL');
});

test('names the platform package and its version when it is not installed', () => {
  const result = run(install({ platformPackage: false }), ['--version']);
  assert.equal(result.status, 1);
  assert.match(result.stderr, new RegExp(`@lifesciences-mcp/${target}@9\\.8\\.7`));
  assert.match(result.stderr, /is not installed/);
  assert.match(result.stderr, /--omit=optional/);
});

test('says which platforms have a binary when this one has none', () => {
  const others = ['linux-x64', 'darwin-arm64'].filter((p) => p !== target);
  const result = run(install({ platformPackage: false, platforms: others }), []);
  assert.equal(result.status, 1);
  assert.match(result.stderr, new RegExp(`no prebuilt binary for this platform \\(${target}\\)`));
  assert.match(result.stderr, new RegExp(others.join(', ')));
  assert.match(result.stderr, /uvx lifesciences-mcp/);
});
