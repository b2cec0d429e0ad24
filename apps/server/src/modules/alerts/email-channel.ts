import nodemailer from 'nodemailer';

export type EmailMessage = {
  to: string[];
  subject: string;
  text: string;
  /** Issue 23: a scheduled report's workbook. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

export type EmailChannel = {
  /** False without SMTP_URL: e-mail alerts are then not sent (and not retried). */
  isConfigured: boolean;
  /** Resolves once the SMTP server accepted the message; throws otherwise (the job retries). */
  send(message: EmailMessage): Promise<void>;
  close(): void;
};

/**
 * E-mail over SMTP with nodemailer (the maintained, widely used Node mailer: SMTP, STARTTLS,
 * pooling and MIME encoding we would otherwise write ourselves). One pooled transport per process.
 */
export function createEmailChannel({
  smtpUrl,
  from,
}: {
  smtpUrl: string | undefined;
  from: string;
}): EmailChannel {
  if (!smtpUrl) {
    return {
      isConfigured: false,
      send: () => Promise.reject(new Error('SMTP_URL is not set')),
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(smtpUrl, {
    from,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    isConfigured: true,
    async send({ to, subject, text, attachments }) {
      await transport.sendMail({ from, to, subject, text, attachments });
    },
    close: () => transport.close(),
  };
}
