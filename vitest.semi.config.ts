import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
export default defineConfig({ test: { ...base.test, execArgv: ['--max-semi-space-size=32'] } });
