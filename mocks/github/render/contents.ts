import type { Gh } from '../context.js';
import { blobBytes, getBlob, type PathEntry } from '../git/objects.js';
import type { RepoDoc } from '../model.js';
import { WEB, encodePath, repoApi } from '../urls.js';
import { rawUrl, wrapBase64 } from './git.js';

/**
 * The contents API's shapes: a directory item, a file with its base64 content, a symlink, a
 * submodule. `ref` is the name the client asked for (or the default branch), as in GitHub's URLs.
 */
function kind(entry: PathEntry): 'file' | 'dir' | 'symlink' | 'submodule' {
  if (entry.type === 'tree') return 'dir';
  if (entry.type === 'commit') return 'submodule';
  return entry.mode === '120000' ? 'symlink' : 'file';
}

export function contentItem(gh: Gh, repo: RepoDoc, ref: string, entry: PathEntry) {
  const type = kind(entry);
  const path = encodePath(entry.path);
  const self = `${repoApi(repo.full_name)}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const gitUrl = type === 'dir' ? `${repoApi(repo.full_name)}/git/trees/${entry.sha}`
    : type === 'submodule' ? null : `${repoApi(repo.full_name)}/git/blobs/${entry.sha}`;
  const html = type === 'submodule' ? null : `${WEB}/${repo.full_name}/${type === 'dir' ? 'tree' : 'blob'}/${ref}/${path}`;
  const size = type === 'file' || type === 'symlink' ? getBlob(gh.db.objects, entry.sha)?.size ?? 0 : 0;
  return {
    name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
    path: entry.path,
    sha: entry.sha,
    size,
    url: self,
    html_url: html,
    git_url: gitUrl,
    download_url: type === 'file' || type === 'symlink' ? rawUrl(repo, ref, entry.path) : null,
    type,
    _links: { self, git: gitUrl, html },
  };
}

export function contentFile(gh: Gh, repo: RepoDoc, ref: string, entry: PathEntry) {
  const item = contentItem(gh, repo, ref, entry);
  // Object.assign on the fresh render, not `{ ...item, … }`: see render/repos.ts.
  if (item.type === 'submodule') return Object.assign(item, { submodule_git_url: `${WEB}/${repo.full_name}.git` });
  const blob = getBlob(gh.db.objects, entry.sha);
  const bytes = blob ? blobBytes(blob) : Buffer.alloc(0);
  if (item.type === 'symlink') return Object.assign(item, { target: bytes.toString('utf8') });
  const { _links, ...rest } = item;
  return Object.assign(rest, { content: wrapBase64(bytes), encoding: 'base64', _links });
}
