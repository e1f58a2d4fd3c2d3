import { Command } from 'commander';
import { registerAccount } from './commands/account';
import { registerApiKeys } from './commands/api-keys';
import { registerBootstrap } from './commands/bootstrap';
import { registerCompatMappings } from './commands/compat-mappings';
import { registerIngress } from './commands/ingress';
import { registerInboundWebhooks } from './commands/inbound-webhooks';
import { registerJourneys } from './commands/journeys';
import { registerMembers } from './commands/members';
import { registerSecrets } from './commands/secrets';
import { registerWorkspace } from './commands/workspace';

const program = new Command('mos')
  .description("mos admin CLI (uses DATABASE_URL, else the running ./infra/up.sh's database; run from the repository root as `pnpm mos ...`)")
  .showHelpAfterError()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

registerBootstrap(program);
registerMembers(program);
registerApiKeys(program);
registerSecrets(program);
registerIngress(program);
registerAccount(program);
registerWorkspace(program);
registerInboundWebhooks(program);
registerJourneys(program);
registerCompatMappings(program);

// Unknown options and missing arguments are usage errors: exit 2.
program.exitOverride((err) => {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') process.exit(0);
  process.exit(2);
});
program.commands.forEach(function applyExit(cmd: Command) {
  cmd.exitOverride((err) => {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') process.exit(0);
    process.exit(2);
  });
  cmd.commands.forEach(applyExit);
});

await program.parseAsync(process.argv);
