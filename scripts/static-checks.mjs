// `npm test`'s first step: the type check, ESLint and Prettier at once (each is one process on
// one core, so on two cores they take about half the time in turn). Each one's output is
// printed whole when it ends; the step fails if any of them fails.
import { spawn } from "node:child_process";

const checks = ["typecheck", "lint", "format:check"];

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${script}: ${code === 0 ? "ok" : `failed (exit ${code})`} in ${seconds} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(checks.map(run));
if (results.includes(false)) process.exit(1);
