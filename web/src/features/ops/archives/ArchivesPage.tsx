import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { ArchiveProfile } from '@ques/contracts/core';
import { Avatar } from '../../../components/Avatar';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../../components/Banner';
import { ErrorSummary } from '../../../components/ErrorSummary';
import { Field } from '../../../components/Field';
import { useFieldErrors } from '../../../components/use-field-errors';
import { errorText } from '../../../lib/api';
import { usePageHead } from '../../../lib/head';
import { Link, Route, Routes } from 'react-router-dom';
import { useApiData } from '../../../lib/use-api-data';
import { avatarUploadFailure, checkAvatarFile } from '../../../lib/avatar-upload';
import {
  createArchive,
  fetchArchives,
  markArchive,
  updateArchive,
  uploadArchiveAvatar,
  type ArchiveInput,
} from './api';
import ArchiveCuratedPage from './ArchiveCuratedPage';
import { LoadedList } from '../desk/parts';
import '../ops.css';
import '../desk/ops-desk.css';

const EMPTY: ArchiveInput = { name: '', username: '', bio: '', sources: '' };

/** The archive profiles section: the list with its forms (/ops/archives), and one archive's curated Q&A (/ops/archives/:id). */
export default function ArchivesSection() {
  return (
    <Routes>
      <Route index element={<ArchivesPage />} />
      <Route path=":id" element={<ArchiveCuratedPage />} />
    </Routes>
  );
}

/** Archive profiles (issue 18): create one (with its avatar), edit it, mark or unmark it. */
function ArchivesPage() {
  usePageHead('Archive profiles — Ques operators', 'Non-affiliated archive profiles.', '/ops/archives');
  const archives = useApiData((signal) => fetchArchives(signal), []);
  const [success, setSuccess] = useSuccessMessage();
  const [editing, setEditing] = useState<ArchiveProfile | null>(null);
  /** The profile was saved but its avatar was not: why (the operator can edit it to try again). */
  const [avatarProblem, setAvatarProblem] = useState('');

  const onSaved = (saved: ArchiveProfile, message: string, avatarError = '') => {
    archives.setData((list) => [saved, ...list.filter((a) => a.id !== saved.id)]);
    setEditing(null);
    setSuccess(message);
    setAvatarProblem(avatarError ? `The avatar of @${saved.username} was not saved: ${avatarError}` : '');
  };

  return (
    <section className="admin-page" aria-labelledby="ops-archives-title">
      <h1 className="admin-page__title" id="ops-archives-title">
        Archive profiles
      </h1>
      <p className="muted">
        Non-affiliated profiles curated from public sources. They show a badge and can never be asked or
        tipped.
      </p>
      <SuccessBanner message={success} />
      <ErrorBanner>{avatarProblem}</ErrorBanner>
      <ArchiveForm
        key={editing?.id ?? 'new'}
        archive={editing}
        onCancel={editing ? () => setEditing(null) : undefined}
        onSaved={(saved, avatarError) =>
          onSaved(saved, editing ? `Saved @${saved.username}.` : `Created @${saved.username}.`, avatarError)
        }
      />
      <h2 className="ops-subtitle">All archive profiles</h2>
      <LoadedList
        data={archives}
        what="archive profiles"
        empty="No archive profile yet."
        label="Archive profiles"
        className="ops-list"
      >
        {(a) => (
          <li key={a.id} className="ops-card">
            <p className="ops-archive__who">
              <Avatar name={a.name} url={a.avatarUrl} size={48} alt="" />
              <strong>{a.name}</strong>{' '}
              <a href={`/ask/${encodeURIComponent(a.username)}`} className="text-link">
                @{a.username}
              </a>{' '}
              <span className="muted">{a.archiveProfile ? '· Archive' : '· Not marked as an archive'}</span>
            </p>
            {a.bio ? <p>{a.bio}</p> : null}
            {a.sources ? <p className="muted">Sources: {a.sources}</p> : null}
            <div className="ops-actions">
              <Link to={`/ops/archives/${encodeURIComponent(a.id)}`} className="button button--ghost">
                Curated Q&amp;A <span className="visually-hidden">of @{a.username}</span>
              </Link>
              <button type="button" className="button button--ghost" onClick={() => setEditing(a)}>
                Edit <span className="visually-hidden">@{a.username}</span>
              </button>
              <MarkButton
                archive={a}
                onDone={(saved) =>
                  onSaved(
                    saved,
                    saved.archiveProfile
                      ? `@${saved.username} is an archive again.`
                      : `@${saved.username} is no longer marked as an archive.`,
                  )
                }
              />
            </div>
          </li>
        )}
      </LoadedList>
    </section>
  );
}

function MarkButton({ archive, onDone }: { archive: ArchiveProfile; onDone: (a: ArchiveProfile) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const toggle = async () => {
    setBusy(true);
    setError('');
    try {
      onDone(await markArchive(archive.id, !archive.archiveProfile));
    } catch (err) {
      setError(errorText(err, 'That did not work.', 'That did not work: check your connection.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="button button--ghost" disabled={busy} onClick={() => void toggle()}>
        {archive.archiveProfile ? 'Unmark archive' : 'Mark as archive'}{' '}
        <span className="visually-hidden">@{archive.username}</span>
      </button>
      <ErrorBanner>{error}</ErrorBanner>
    </>
  );
}

function ArchiveForm({
  archive,
  onSaved,
  onCancel,
}: {
  archive: ArchiveProfile | null;
  /** `avatarError`: the profile was saved, its new avatar was not (why). */
  onSaved: (a: ArchiveProfile, avatarError?: string) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<ArchiveInput>(
    archive ? { name: archive.name, bio: archive.bio, sources: archive.sources } : EMPTY,
  );
  const [avatar, setAvatar] = useState<File | null>(null);
  /** Why the picked file was refused ('' for none or a good one): one of the form's rules, shown with the others. */
  const [fileProblem, setFileProblem] = useState('');
  const [fileKey, setFileKey] = useState(0);
  const [error, setError] = useState('');
  const form = useFieldErrors(() => ({
    name: values.name.trim() ? undefined : 'Name is required',
    avatar: fileProblem || undefined,
  }));
  const [busy, setBusy] = useState(false);
  const set = (key: keyof ArchiveInput) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const pickAvatar = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0] ?? null;
    // Spec §5: image files only, under 2 MB — checked before sending, as on the account page.
    const problem = file ? checkAvatarFile(file) : null;
    setFileProblem(problem ?? '');
    setAvatar(problem ? null : file);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    if (!form.attempt()) return;
    setBusy(true);
    setError('');
    try {
      let saved = archive
        ? await updateArchive(archive.id, { name: values.name, bio: values.bio, sources: values.sources })
        : await createArchive(values);
      let failed = '';
      if (avatar) {
        try {
          saved = await uploadArchiveAvatar(saved.id, avatar);
        } catch (err) {
          failed = avatarUploadFailure(err);
        }
      }
      if (!archive) {
        form.reset();
        setValues(EMPTY);
        setAvatar(null);
        setFileKey((k) => k + 1);
      }
      onSaved(saved, failed);
    } catch (err) {
      setError(
        errorText(
          err,
          'The archive profile could not be saved.',
          'The archive profile could not be saved: check your connection.',
        ),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="ops-form ops-card"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="ops-archive-form-title"
      noValidate
    >
      <h2 className="ops-subtitle" id="ops-archive-form-title">
        {archive ? `Edit @${archive.username}` : 'Create an archive profile'}
      </h2>
      <Field label="Name" marker="required" {...form.field('name')}>
        {(field) => (
          <input
            {...field}
            className="input"
            value={values.name}
            onChange={set('name')}
            maxLength={80}
            required
          />
        )}
      </Field>
      {archive ? null : (
        <Field label="Username" marker="optional" hint="From the name when left empty.">
          {(field) => (
            <input
              {...field}
              className="input"
              value={values.username}
              onChange={set('username')}
              maxLength={40}
            />
          )}
        </Field>
      )}
      <Field label="Bio" marker="optional">
        {(field) => (
          <textarea
            {...field}
            className="input"
            rows={3}
            value={values.bio}
            onChange={set('bio')}
            maxLength={1000}
          />
        )}
      </Field>
      <div className="ops-archive__avatar">
        {archive ? <Avatar name={archive.name} url={archive.avatarUrl} size={64} alt="" /> : null}
        <Field
          label="Avatar"
          marker="optional"
          hint="JPEG, PNG, GIF or WebP, under 2 MB."
          {...form.field('avatar')}
        >
          {(field) => (
            <input
              {...field}
              key={fileKey}
              type="file"
              accept="image/*"
              className="input"
              onChange={pickAvatar}
            />
          )}
        </Field>
      </div>
      <Field
        label="Sources"
        marker="optional"
        hint="Where the material comes from (books, interviews, programmes)."
      >
        {(field) => (
          <textarea
            {...field}
            className="input"
            rows={3}
            value={values.sources}
            onChange={set('sources')}
            maxLength={2000}
          />
        )}
      </Field>
      <ErrorSummary count={form.count} />
      <ErrorBanner>{error}</ErrorBanner>
      <div className="ops-actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {archive ? 'Save changes' : 'Create archive profile'}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
