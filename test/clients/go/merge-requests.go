// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev) drives a merge request against Kiln: a
// branch and a commit, the merge request opened, listed, read, approved and merged, and its
// approvals and participants read. Built in GOPATH mode by test/clients/go-gitlab.test.ts; prints
// what it saw as JSON, or exits 1 with the failing call.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/xanzy/go-gitlab"
)

func check(step string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", step, err)
		os.Exit(1)
	}
}

func main() {
	client, err := gitlab.NewClient(os.Getenv("TOKEN"), gitlab.WithBaseURL(os.Getenv("URL")+"/api/v4"))
	check("client", err)
	project := os.Getenv("PROJECT")
	out := map[string]interface{}{}

	_, _, err = client.Branches.CreateBranch(project, &gitlab.CreateBranchOptions{Branch: gitlab.String("go-topic"), Ref: gitlab.String("main")})
	check("create branch", err)
	action := gitlab.FileCreate
	commit, _, err := client.Commits.CreateCommit(project, &gitlab.CreateCommitOptions{
		Branch:        gitlab.String("go-topic"),
		CommitMessage: gitlab.String("Add go.txt"),
		Actions:       []*gitlab.CommitActionOptions{{Action: &action, FilePath: gitlab.String("go.txt"), Content: gitlab.String("go\n")}},
	})
	check("create commit", err)

	mr, _, err := client.MergeRequests.CreateMergeRequest(project, &gitlab.CreateMergeRequestOptions{
		Title:        gitlab.String("Go change"),
		Description:  gitlab.String("from go-gitlab"),
		SourceBranch: gitlab.String("go-topic"),
		TargetBranch: gitlab.String("main"),
		Labels:       &gitlab.Labels{"go"},
	})
	check("create merge request", err)
	out["created"] = []interface{}{mr.IID, mr.State, mr.SourceBranch, mr.TargetBranch, []string(mr.Labels), mr.SHA == commit.ID, mr.Author.Username}

	listed, _, err := client.MergeRequests.ListProjectMergeRequests(project, &gitlab.ListProjectMergeRequestsOptions{State: gitlab.String("opened"), Labels: &gitlab.Labels{"go"}})
	check("list merge requests", err)
	iids := []int{}
	for _, item := range listed {
		iids = append(iids, item.IID)
	}
	out["listed"] = iids

	got, _, err := client.MergeRequests.GetMergeRequest(project, mr.IID, nil)
	check("get merge request", err)
	out["got"] = []interface{}{got.Title, got.Description, got.DiffRefs.HeadSha == commit.ID, got.References.Short, got.WebURL != ""}

	changes, _, err := client.MergeRequests.GetMergeRequestChanges(project, mr.IID, nil)
	check("changes", err)
	paths := []string{}
	for _, change := range changes.Changes {
		paths = append(paths, change.NewPath)
	}
	out["changes"] = paths

	updated, _, err := client.MergeRequests.UpdateMergeRequest(project, mr.IID, &gitlab.UpdateMergeRequestOptions{Title: gitlab.String("Go change, edited"), AddLabels: &gitlab.Labels{"reviewed"}})
	check("update merge request", err)
	out["updated"] = []interface{}{updated.Title, []string(updated.Labels)}

	commits, _, err := client.MergeRequests.GetMergeRequestCommits(project, mr.IID, nil)
	check("commits", err)
	titles := []string{}
	for _, one := range commits {
		titles = append(titles, one.Title)
	}
	out["commits"] = titles

	versions, _, err := client.MergeRequests.GetMergeRequestDiffVersions(project, mr.IID, nil)
	check("versions", err)
	out["versions"] = []interface{}{len(versions), versions[0].HeadCommitSHA == commit.ID, versions[0].State}

	note, _, err := client.Notes.CreateMergeRequestNote(project, mr.IID, &gitlab.CreateMergeRequestNoteOptions{Body: gitlab.String("Looks good")})
	check("note", err)
	out["note"] = []interface{}{note.Body, note.NoteableType}

	// go-gitlab sends "line_range": null beside the position's fields.
	thread, _, err := client.Discussions.CreateMergeRequestDiscussion(project, mr.IID, &gitlab.CreateMergeRequestDiscussionOptions{
		Body: gitlab.String("Why go?"),
		Position: &gitlab.NotePosition{
			BaseSHA: got.DiffRefs.BaseSha, StartSHA: got.DiffRefs.StartSha, HeadSHA: got.DiffRefs.HeadSha,
			PositionType: "text", NewPath: "go.txt", OldPath: "go.txt", NewLine: 1,
		},
	})
	check("diff thread", err)
	first := thread.Notes[0]
	out["thread"] = []interface{}{string(first.Type), first.Position.NewPath, first.Position.NewLine, first.Resolvable, first.Resolved}
	resolved, _, err := client.Discussions.ResolveMergeRequestDiscussion(project, mr.IID, thread.ID, &gitlab.ResolveMergeRequestDiscussionOptions{Resolved: gitlab.Bool(true)})
	check("resolve", err)
	out["resolved"] = resolved.Notes[0].Resolved

	approved, _, err := client.MergeRequestApprovals.ApproveMergeRequest(project, mr.IID, &gitlab.ApproveMergeRequestOptions{SHA: gitlab.String(commit.ID)})
	check("approve", err)
	approvers := []string{}
	for _, approver := range approved.ApprovedBy {
		approvers = append(approvers, approver.User.Username)
	}
	out["approved"] = approvers

	participants, _, err := client.MergeRequests.GetMergeRequestParticipants(project, mr.IID)
	check("participants", err)
	names := []string{}
	for _, user := range participants {
		names = append(names, user.Username)
	}
	out["participants"] = names

	merged, _, err := client.MergeRequests.AcceptMergeRequest(project, mr.IID, &gitlab.AcceptMergeRequestOptions{
		SHA:                      gitlab.String(commit.ID),
		MergeCommitMessage:       gitlab.String("Merged by go-gitlab"),
		ShouldRemoveSourceBranch: gitlab.Bool(true),
	})
	check("merge", err)
	out["merged"] = []interface{}{merged.State, merged.MergedBy.Username, merged.MergeCommitSHA != ""}

	_, response, err := client.MergeRequests.AcceptMergeRequest(project, mr.IID, nil)
	if err == nil {
		check("merge again", fmt.Errorf("merged twice"))
	}
	out["merge_again"] = response.StatusCode

	head, _, err := client.Commits.GetCommit(project, "main")
	check("main", err)
	out["main"] = []interface{}{head.Title, len(head.ParentIDs)}

	encoded, err := json.Marshal(out)
	check("json", err)
	fmt.Println(string(encoded))
}
