import { createRouter, createWebHashHistory } from 'vue-router'
import AblationsView from './views/AblationsView.vue'
import CorpusView from './views/CorpusView.vue'
import DocumentView from './views/DocumentView.vue'
import FindingsView from './views/FindingsView.vue'
import GraphView from './views/GraphView.vue'
import JobsView from './views/JobsView.vue'
import PoliciesView from './views/PoliciesView.vue'
import QuestionsView from './views/QuestionsView.vue'
import RewardsView from './views/RewardsView.vue'
import RunsView from './views/RunsView.vue'
import RunView from './views/RunView.vue'
import TrainingView from './views/TrainingView.vue'
import TrajectoryView from './views/TrajectoryView.vue'
import WorkspaceView from './views/WorkspaceView.vue'
import WorkspacesView from './views/WorkspacesView.vue'

// Hash history works both from file:// in Electron and from the loopback server.
export const createAppRouter = () =>
  createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', component: WorkspacesView },
      { path: '/models', component: PoliciesView },
      { path: '/jobs', component: JobsView },
      { path: '/workspaces/:id', component: WorkspaceView },
      { path: '/workspaces/:id/corpus', component: CorpusView },
      { path: '/workspaces/:id/documents/:documentId', component: DocumentView },
      { path: '/workspaces/:id/questions', component: QuestionsView },
      { path: '/workspaces/:id/graph', component: GraphView },
      { path: '/workspaces/:id/runs', component: RunsView },
      { path: '/workspaces/:id/training', component: TrainingView },
      { path: '/workspaces/:id/ablations', component: AblationsView },
      { path: '/workspaces/:id/findings', component: FindingsView },
      { path: '/workspaces/:id/rewards', component: RewardsView },
      { path: '/workspaces/:id/runs/:runId', component: RunView },
      { path: '/workspaces/:id/episodes/:episodeId', component: TrajectoryView },
      { path: '/:pathMatch(.*)*', redirect: '/' },
    ],
  })
