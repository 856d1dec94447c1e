/**
 * The mail port and its SMTP implementation on nodemailer (docs/alerts.md "Delivery"). The node is configured with
 * an SMTP URL (`smtp://user:pass@host:587`, or `smtps://` for implicit TLS) and a From address.
 */
import nodemailer from 'nodemailer';

interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, headers: { ...message.headers } });
    },
    close: () => transport.close(),
  };
}
