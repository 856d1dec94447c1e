// The smtp-server package ships no types; this is the part the test SMTP sink uses.
declare module 'smtp-server' {
  import type { Readable } from 'node:stream';
  import type { Server } from 'node:net';
  interface SMTPServerSession {
    readonly envelope: { readonly rcptTo: ReadonlyArray<{ readonly address: string }> };
  }
  interface SMTPServerOptions {
    authOptional?: boolean;
    disabledCommands?: string[];
    logger?: boolean;
    onData?(stream: Readable, session: SMTPServerSession, callback: (error?: Error | null) => void): void;
  }
  export class SMTPServer {
    constructor(options: SMTPServerOptions);
    readonly server: Server;
    listen(port: number, host: string, callback: () => void): void;
    close(callback: () => void): void;
  }
}
