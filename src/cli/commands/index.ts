/**
 * The command table. Each entry registers one subcommand on the commander program and reports
 * its exit code through `setExit`. Keep one line per command file.
 */
import { registerConfigCommand } from './config.js';
import { registerDoctorCommand } from './doctor.js';
import { registerHelpCommand } from './help.js';
import { registerHookCommand } from './hook.js';
import { registerInitCommand } from './init.js';
import { registerKanbanCommand } from './kanban.js';
import { registerLaunchCommand } from './launch.js';
import { registerMcpCommand } from './mcp.js';
import { registerObserveCommand } from './observe.js';
import { registerProvidersCommand } from './providers.js';
import { registerReportCommand } from './report.js';
import { registerSessionsCommand } from './sessions.js';
import { registerSupervisorHookCommand } from './supervisor-hook.js';
import { registerSupervisorModeCommand } from './supervisor-mode.js';
import { registerValidateCommand } from './validate.js';
import type { RegisterCommand } from './register-command.js';

export const commands: RegisterCommand[] = [
  registerConfigCommand,
  registerDoctorCommand,
  registerHookCommand,
  registerInitCommand,
  registerProvidersCommand,
  registerValidateCommand,
  registerObserveCommand,
  registerSessionsCommand,
  registerReportCommand,
  registerSupervisorModeCommand,
  registerSupervisorHookCommand,
  registerMcpCommand,
  registerKanbanCommand,
  registerHelpCommand,
  registerLaunchCommand,
];
