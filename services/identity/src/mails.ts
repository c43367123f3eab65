import { EMAIL_VERIFICATION_TTL_HOURS } from '@ques/contracts';
import { letterMail, utcDateTime, type MailMessage } from '@ques/kit';

/*
 * Identity's e-mails, each one letter in Ques's colours (ADR 0053: they are about the reader's own account, not about
 * an owner's page). The HTML part is rendered when the mailer sends; the text part comes from the same letter.
 */

export function verificationMail(input: { to: string; name: string; link: string; verificationId: string }): MailMessage {
  return letterMail(
    { to: input.to, subject: 'Verify your email address for Ques', messageId: `<email-verification.${input.verificationId}@ques>` },
    {
      preview: `Confirm this address within ${EMAIL_VERIFICATION_TTL_HOURS} hours`,
      greeting: `Hi ${input.name},`,
      heading: 'Confirm your e-mail address',
      body: [
        `Please confirm that this is your email address by opening this link within ${EMAIL_VERIFICATION_TTL_HOURS} hours.`,
        'Until you do, questions you asked as a guest with this address stay unlinked from your account and we send no notifications to it.',
      ],
      action: { label: 'Verify my address', url: input.link },
      after: ['If you did not create a Ques account or change its address, ignore this email.'],
      footer: 'You received this because this address was given for a Ques account.',
    },
  );
}

export function passwordResetMail(input: { to: string; name: string; link: string }): MailMessage {
  return letterMail(
    { to: input.to, subject: 'Reset your Ques password' },
    {
      preview: 'Choose a new password within 30 minutes',
      greeting: `Hi ${input.name},`,
      heading: 'Reset your password',
      body: ['Someone (hopefully you) asked to reset the password of your Ques account. Open this link within 30 minutes to choose a new one.'],
      action: { label: 'Choose a new password', url: input.link },
      after: ['If you did not ask for this, ignore this e-mail: your password stays as it is.'],
      footer: 'You received this because a password reset was asked for this address on Ques.',
    },
  );
}

export function exportReadyMail(input: { to: string; name: string; settingsUrl: string; expiresAt: Date; exportId: string }): MailMessage {
  return letterMail(
    { to: input.to, subject: 'Your Ques data export is ready', messageId: `<data-export.${input.exportId}@ques>` },
    {
      preview: 'Download it from Account Settings while signed in',
      greeting: `Hi ${input.name},`,
      heading: 'Your data export is ready',
      facts: [{ label: 'Available until', value: utcDateTime(input.expiresAt) }],
      body: [
        'The export of your Ques data you asked for is ready. Download it from Account Settings while signed in.',
        'After that date it is deleted and you can ask for a new one.',
      ],
      action: { label: 'Open Account Settings', url: input.settingsUrl },
      after: ['If you did not ask for it, change your password.'],
      footer: 'You received this because a data export was asked for your Ques account.',
    },
  );
}

export function claimOutcomeMail(input: {
  to: string;
  name: string;
  profileName: string;
  page: string;
  /** The claim's outcome, as stored (`approved`, or the refusal's status): part of the Message-ID. */
  status: string;
  reason: string | null;
  claimId: string;
}): MailMessage {
  const { page } = input;
  const approved = input.status === 'approved';
  return letterMail(
    {
      to: input.to,
      subject: approved ? `Your claim of ${input.profileName}'s page on Ques was approved` : `Your claim of ${input.profileName}'s page on Ques`,
      messageId: `<profile-claim.${input.claimId}.${input.status}@ques>`,
    },
    approved
      ? {
          preview: `${page} is now your page`,
          greeting: `Hi ${input.name},`,
          heading: 'Your claim was approved',
          facts: [{ label: 'Your page', value: page }],
          body: [
            `Your claim was approved: ${page} is now your page. Log in with your e-mail address and password as before.`,
            'Its curated answers and their sources are kept; people can now ask you questions, and tipping opens once you set up payouts.',
          ],
          action: { label: 'Open your page', url: page },
          footer: 'You received this because you claimed this page on Ques.',
        }
      : {
          preview: 'We could not approve your claim',
          greeting: `Hi ${input.name},`,
          heading: `We could not approve your claim of ${page}`,
          facts: [{ label: 'Why', value: input.reason ?? '' }],
          body: ['You can send a new claim from the page with more to go on.'],
          action: { label: 'Open the page', url: page },
          footer: 'You received this because you claimed this page on Ques.',
        },
  );
}
